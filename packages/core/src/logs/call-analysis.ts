import { LOG_DATA_KEY_PATTERN, LOG_FIXED_FIELDS } from "./log-fields.ts";

/**
 * Post-call analysis (issue 35): when a call or chat ends, its summary, a verdict against the agent's success
 * rule and the fields the owner defines are written into the log row's `data`, under these keys, where log
 * filters, columns, exports, metrics and webhooks read data.
 */
export const ANALYSIS_DATA_KEYS = {
  /** A few sentences on what happened. */
  summary: "summary",
  /** true or false: the conversation met the agent's success rule (absent when it could not be judged). */
  successful: "callSuccessful",
  /** Why the verdict is what it is, or why there is none. */
  evaluation: "successEvaluation",
  /** What could not be determined (field names, "success"), comma-separated; empty when all was. */
  undetermined: "analysisUndetermined",
  /** When the analysis was written (ISO 8601). */
  analyzedAt: "analyzedAt",
} as const;

export const ANALYSIS_FIELD_TYPES = ["text", "number", "boolean", "enum"] as const;
export type AnalysisFieldType = (typeof ANALYSIS_FIELD_TYPES)[number];

/** Most fields one agent's analysis defines. */
export const MAX_ANALYSIS_FIELDS = 20;

/**
 * Data keys a field may not be named: the fixed log fields, the analysis's own keys and what the agent's
 * tools and calls already write (a field of that name would be overwritten or shadowed).
 */
export const RESERVED_ANALYSIS_FIELD_NAMES: ReadonlySet<string> = new Set([
  ...LOG_FIXED_FIELDS,
  ...Object.values(ANALYSIS_DATA_KEYS),
  "appointmentBooked",
  "appointmentTime",
  "transferred",
  "smsSent",
  "channel",
  "stage",
  "source",
  "model",
  "endedByAgent",
  "callOutcome",
  "transport",
  "narrowband",
  "bargeIns",
  "turnTimings",
  "warning",
  "recordingUrl",
  "taskId",
  "taskOutcome",
  "taskCompleted",
  "taskCall",
  "taskAnswered",
  "taskBooked",
]);

/** Why an analysis field's name cannot be used, or null when it can. */
export function analysisFieldNameProblem(name: string): string | null {
  if (!LOG_DATA_KEY_PATTERN.test(name))
    return "A field name starts with a letter and has only letters, digits and underscores (at most 64).";
  if (
    RESERVED_ANALYSIS_FIELD_NAMES.has(name) ||
    [...RESERVED_ANALYSIS_FIELD_NAMES].some((r) => r.toLowerCase() === name.toLowerCase())
  )
    return `“${name}” is already a field of every call: choose another name.`;
  return null;
}
