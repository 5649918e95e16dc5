import { APICallError, RetryError } from "ai";

/**
 * What a failed model call means for the person in the conversation: one clear sentence per kind of
 * failure, and the kind for the log. The raw error is logged, never shown.
 */
export type ModelFailureKind =
  | "timeout"
  | "unauthorized"
  | "rate-limited"
  | "server-error"
  | "not-found"
  | "bad-request"
  | "unreachable"
  | "malformed"
  | "aborted"
  | "step-limit"
  | "empty"
  | "unknown";

export type ModelFailure = { kind: ModelFailureKind; message: string; status?: number };

function innermost(error: unknown): unknown {
  let current = error;
  for (let i = 0; i < 5; i++) {
    if (RetryError.isInstance(current)) current = current.lastError;
    else break;
  }
  return current;
}

const isNamed = (error: unknown, ...names: string[]) =>
  typeof error === "object" && error !== null && names.includes((error as { name?: string }).name ?? "");

const MALFORMED_MESSAGE = "The language model sent an answer that could not be read. Please try again.";

export function describeModelFailure(error: unknown, timeoutMs: number): ModelFailure {
  const cause = innermost(error);
  if (isNamed(cause, "TimeoutError")) {
    return {
      kind: "timeout",
      message: `The language model did not answer within ${Math.round(timeoutMs / 100) / 10} s. Please try again.`,
    };
  }
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    // A stream whose first event cannot be read reaches us as a 500 carrying the parse error.
    if (/AI_(JSONParseError|TypeValidationError)/.test(cause.responseBody ?? ""))
      return { kind: "malformed", message: MALFORMED_MESSAGE };
    if (status === 401 || status === 403)
      return {
        kind: "unauthorized",
        status,
        message: `The language model refused the API key (${status}). Check the model settings.`,
      };
    if (status === 429)
      return {
        kind: "rate-limited",
        status,
        message: "The language model is over its rate limit (429). Please try again in a moment.",
      };
    if (status === 404)
      return {
        kind: "not-found",
        status,
        message: "The language model was not found (404). Check the model name.",
      };
    if (status !== undefined && status >= 500)
      return {
        kind: "server-error",
        status,
        message: `The language model service failed (${status}). Please try again in a moment.`,
      };
    if (status !== undefined && status >= 400)
      return { kind: "bad-request", status, message: `The language model rejected the request (${status}).` };
    return { kind: "unreachable", message: "The language model could not be reached. Please try again." };
  }
  if (isNamed(cause, "AbortError", "ResponseAborted")) {
    return { kind: "aborted", message: "The answer was cancelled." };
  }
  if (
    isNamed(
      cause,
      "AI_JSONParseError",
      "AI_TypeValidationError",
      "AI_InvalidResponseDataError",
      "AI_EmptyResponseBodyError",
      "AI_NoContentGeneratedError",
      "AI_InvalidStreamPartError",
    )
  ) {
    return {
      kind: "malformed",
      message: "The language model sent an answer that could not be read. Please try again.",
    };
  }
  if (cause instanceof TypeError && /fetch failed|ECONNREFUSED|network/i.test(String(cause.message))) {
    return { kind: "unreachable", message: "The language model could not be reached. Please try again." };
  }
  return { kind: "unknown", message: "The language model failed to answer. Please try again." };
}
