import { LOAD_MESSAGES } from "@switchboard/api";
import type { FastifyError, FastifyInstance } from "fastify";
import { ApiError } from "../api-error.ts";
import { RetryLater } from "./rate-limit.ts";

/** Messages for the errors Fastify itself raises before a handler runs. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "Request body is too large.",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type.",
  FST_ERR_CTP_EMPTY_JSON_BODY: "Request body is empty but the content type is JSON.",
  FST_ERR_CTP_INVALID_JSON_BODY: "Request body is not valid JSON.",
};

/** What a caller waits before trying again when the database had no connection for it. */
const BUSY_RETRY_SECONDS = 2;

/** node-postgres's pool found no free connection in time, or could not open one in time. */
const POOL_TIMEOUTS = new Set([
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
]);

/**
 * The database could not take the request now: the pool's wait ran out (DATABASE_POOL_SIZE connections all
 * busy), or PostgreSQL refused a connection for lack of resources (SQLSTATE class 53, e.g. too many
 * connections) or while it starts or stops (57P03). Looks through Drizzle's wrapper.
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const { message, code } = current as { message?: unknown; code?: unknown };
    if (typeof message === "string" && POOL_TIMEOUTS.has(message)) return true;
    if (typeof code === "string" && (code.startsWith("53") || code === "57P03") && code.length === 5)
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * One error shape for the whole API: `{ success: false, message }` with a correct status. An answer that
 * asks to come back later (429, 503 busy) says when in Retry-After.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError | Error, request, reply) => {
    if (error instanceof RetryLater) reply.header("retry-after", String(error.retryAfterSeconds));
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send({ ...error.extra, success: false, message: error.message });
    }
    if (isDatabaseBusy(error)) {
      request.log.warn({ route: request.routeOptions.url }, "no database connection in time: answered 503");
      return reply
        .status(503)
        .header("retry-after", String(BUSY_RETRY_SECONDS))
        .send({ success: false, message: LOAD_MESSAGES.busy });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.status(status).send({ success: false, message: "Internal server error" });
    }
    const message = FRAMEWORK_MESSAGES[fastifyError.code] ?? error.message;
    return reply.status(status).send({ success: false, message });
  });
}
