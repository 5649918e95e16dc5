import type { TestCheck, TestOutcome } from "@switchboard/api";

/** The scenario form's check fields: blank ones add no check. */
export type CheckFields = {
  says: string;
  neverSays: string;
  reaches: TestOutcome | "";
  firstAnswerMs: string;
};

export const NO_CHECKS: CheckFields = { says: "", neverSays: "", reaches: "", firstAnswerMs: "" };

export function checksFrom(fields: CheckFields): TestCheck[] {
  const checks: TestCheck[] = [];
  if (fields.says.trim()) checks.push({ kind: "says", phrase: fields.says.trim() });
  if (fields.neverSays.trim()) checks.push({ kind: "neverSays", phrase: fields.neverSays.trim() });
  if (fields.reaches) checks.push({ kind: "reaches", outcome: fields.reaches });
  if (fields.firstAnswerMs.trim())
    checks.push({ kind: "latency", measure: "firstAnswer", maxMs: Number(fields.firstAnswerMs) });
  return checks;
}

const OUTCOME_LABELS: Record<TestOutcome, string> = {
  booked: "books an appointment",
  transferred: "transfers the call",
  ended: "ends the call",
};
export const OUTCOME_OPTIONS = Object.entries(OUTCOME_LABELS).map(([value, label]) => ({ value, label }));

/** A check in words, as the results list it. */
export function checkText(check: TestCheck): string {
  switch (check.kind) {
    case "says":
      return `Says “${check.phrase}”`;
    case "neverSays":
      return `Never says “${check.phrase}”`;
    case "reaches":
      return `Reaches: ${OUTCOME_LABELS[check.outcome]}`;
    case "latency":
      return `${check.measure === "firstAnswer" ? "First answer" : "95th percentile answer"} within ${check.maxMs} ms`;
  }
}
