import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Nothing from outside ends the process: a rejection nobody handled, or an exception nobody caught, is
 * logged with the context it happened in and counted (`/readyz` shows the count), and the server goes on
 * answering. Each one is a bug to fix; the count makes them visible without taking every call and request
 * of the instance down with it.
 */

export type UnexpectedContext = Record<string, unknown>;
export type UnexpectedLog = { error(details: object, message: string): void };

/** Until the server's logger is given: one JSON line on stderr, like the logger's. */
const stderrLog: UnexpectedLog = {
  error(details, message) {
    const { err, ...rest } = details as { err?: unknown };
    const error =
      err instanceof Error ? { type: err.name, message: err.message, stack: err.stack } : String(err);
    process.stderr.write(
      `${JSON.stringify({ level: 50, time: Date.now(), ...rest, err: error, msg: message })}\n`,
    );
  },
};

let log: UnexpectedLog = stderrLog;
let count = 0;
const contexts = new AsyncLocalStorage<UnexpectedContext>();

/**
 * Runs `work` with `context` (e.g. `{ callId }`) attached to everything it starts, so an unexpected error
 * there is logged with it. Nested contexts add to the outer one.
 */
export function withUnexpectedContext<T>(context: UnexpectedContext, work: () => T): T {
  return contexts.run({ ...contexts.getStore(), ...context }, work);
}

/**
 * Logs an error nobody could handle where it happened, with the current context and `context`, and counts
 * it. Never throws.
 */
export function reportUnexpected(error: unknown, context: UnexpectedContext = {}): void {
  count++;
  try {
    log.error(
      { err: error, ...contexts.getStore(), ...context, unexpectedErrors: count },
      "unexpected error (the process goes on)",
    );
  } catch {
    // A logger that fails must not turn one unexpected error into an exit.
  }
}

/** Unexpected errors this process has reported since it started. */
export function unexpectedErrorCount(): number {
  return count;
}

const onRejection = (reason: unknown) => reportUnexpected(reason, { source: "unhandledRejection" });
const onException = (error: unknown, origin: string) => reportUnexpected(error, { source: origin });
let installed = false;

/**
 * Installs the process-level handlers (once; a later call only changes the logger). Returns the removal,
 * for tests.
 */
export function installProcessGuard(logger?: UnexpectedLog): () => void {
  if (logger) log = logger;
  if (!installed) {
    installed = true;
    process.on("unhandledRejection", onRejection);
    process.on("uncaughtException", onException);
  }
  return () => {
    installed = false;
    log = stderrLog;
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  };
}
