import { createRequire } from "node:module";
import { cleanText, truncateText } from "@switchboard/core";

/** Longest message kept for a failed attempt. */
const MAX_MESSAGE = 500;
const MAX_FRAMES = 15;

const isError = (value: unknown): value is Error & { cause?: unknown; code?: unknown } =>
  value instanceof Error;

/**
 * Drizzle's wrapper of a driver error: its message carries the statement and every parameter. (The driver's
 * own error may hold them as properties, but its message does not.)
 */
const isQueryError = (error: Error) => error.message.startsWith("Failed query:");

/** The message that says what went wrong: a wrapped query error's driver message, never its parameters. */
function messageOf(error: unknown): { name: string; message: string; code: string | null } {
  let current = error;
  for (let depth = 0; depth < 5 && isError(current) && isQueryError(current); depth++) {
    if (!isError(current.cause))
      return { name: "Error", message: "A database statement failed.", code: null };
    current = current.cause;
  }
  if (isError(current))
    return {
      name: current.name,
      message: current.message,
      code: typeof current.code === "string" ? current.code : null,
    };
  return { name: "Error", message: typeof current === "string" ? current : "The job failed.", code: null };
}

const shorten = (text: string, max: number) => truncateText(cleanText(text).replace(/\s+/g, " ").trim(), max);

/**
 * A failed attempt as the runner records it (pg-boss keeps the error as JSON in the job's `output`): a plain
 * error with a short, clean message (at most 500 characters), the driver's error code when there is one,
 * and the original stack's frames — never a cause, a statement or its parameters, which could be large or
 * hold text jsonb refuses (NUL), so that recording the failure cannot fail in turn.
 */
export function jobFailureOf(error: unknown): Error {
  try {
    const described = messageOf(error);
    const name = shorten(described.name, 60) || "Error";
    const message = shorten(described.message, MAX_MESSAGE) || "The job failed.";
    const failure = new Error(message) as Error & { code?: string };
    failure.name = name;
    if (described.code) failure.code = shorten(described.code, 20);
    const frames = isError(error)
      ? (error.stack ?? "")
          .split("\n")
          .filter((line) => /^\s+at /.test(line))
          .slice(0, MAX_FRAMES)
          .map((line) => shorten(line, 300))
      : [];
    failure.stack = [`${name}: ${message}`, ...frames.map((frame) => `    ${frame}`)].join("\n");
    return failure;
  } catch {
    // An error whose message or stack cannot even be read (a throwing getter).
    return new Error("The job failed.");
  }
}

type Plans = { completeJobs(schema: string): string; failJobsById(schema: string): string };
const plans = createRequire(import.meta.url)("pg-boss/src/plans.js") as Plans;

/**
 * The statements pg-boss sends without waiting for them when a job's attempt ends (complete, fail): their
 * failure (the database gone for a moment) is nobody's to catch, so the runner catches it.
 */
export function unawaitedStatementsOf(schema: string): Set<string> {
  return new Set([plans.completeJobs(schema), plans.failJobsById(schema)]);
}
