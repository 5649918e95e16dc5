import type { TestCheck, TestCheckResult, TestResult } from "@switchboard/api";

/** What one scenario's call left, read from its stored conversation and the pipeline's timings. */
export type CallRecord = {
  transcript: TestResult["transcript"];
  /** Tools the agent ran, with whether each succeeded. */
  tools: { name: string; ok: boolean }[];
  /** How the call ended (the pipeline's outcome). */
  outcome: string;
  greetingMs: number | null;
  /** Each answer: the caller's last word to the agent's first sound (turns it answered). */
  answerMs: number[];
  /** Turns of the caller the agent did not answer. */
  unanswered: number;
};

/** The 95th percentile (nearest rank) of the values, null when there are none. */
export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? null;
}

const fold = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

const OUTCOME_WORDS = { booked: "a booking", transferred: "a transfer", ended: "the agent ending the call" };

function reached(outcome: "booked" | "transferred" | "ended", call: CallRecord): boolean {
  const ran = (name: string) => call.tools.some((tool) => tool.name === name && tool.ok);
  if (outcome === "booked") return ran("bookAppointment");
  if (outcome === "transferred") return call.outcome === "transferred" || ran("transferCall");
  return call.outcome === "agent-ended" || ran("endCall");
}

/** One check judged on the call's real transcript, tools and timings. */
export function judgeCheck(check: TestCheck, call: CallRecord): TestCheckResult {
  const agentLines = call.transcript.filter((line) => line.role === "agent").map((line) => line.text);
  switch (check.kind) {
    case "says": {
      const line = agentLines.find((text) => fold(text).includes(fold(check.phrase)));
      return line
        ? { check, passed: true, detail: `Said: “${line}”` }
        : { check, passed: false, detail: `The agent never said “${check.phrase}”.` };
    }
    case "neverSays": {
      const line = agentLines.find((text) => fold(text).includes(fold(check.phrase)));
      return line
        ? { check, passed: false, detail: `Said “${check.phrase}”: “${line}”` }
        : { check, passed: true, detail: `Never said “${check.phrase}”.` };
    }
    case "reaches": {
      const ok = reached(check.outcome, call);
      const what = OUTCOME_WORDS[check.outcome];
      return { check, passed: ok, detail: ok ? `Reached ${what}.` : `No ${what.replace(/^(a|the) /, "")}.` };
    }
    case "latency": {
      const measured = check.measure === "firstAnswer" ? (call.answerMs[0] ?? null) : p95(call.answerMs);
      const label = check.measure === "firstAnswer" ? "First answer" : "95th percentile answer";
      if (measured === null) return { check, passed: false, detail: "The agent did not answer the caller." };
      const ms = Math.round(measured);
      return {
        check,
        passed: ms <= check.maxMs,
        detail: `${label}: ${ms} ms (limit ${check.maxMs} ms).`,
      };
    }
  }
}

/** The scenario's verdict: passed when every check passed. */
export function verdictOf(checks: readonly TestCheckResult[]): "passed" | "failed" {
  return checks.every((result) => result.passed) ? "passed" : "failed";
}
