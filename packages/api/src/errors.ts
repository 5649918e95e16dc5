import { z } from "zod";

/** The one error shape of the whole API. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** Error thrown by the typed client for a non-OK answer; carries the status and the server's message. */
export class ApiRequestError extends Error {
  readonly status: number;
  /** The whole answer: some errors carry more than the message (a stale save's 409 carries `current`). */
  readonly body: unknown;
  constructor(status: number, message: string, body?: unknown) {
    super(message);
    this.name = "ApiRequestError";
    this.status = status;
    this.body = body;
  }
}

/** Refusals that ask the caller to come back later; their answers carry Retry-After (seconds). */
export const LOAD_MESSAGES = {
  /** 429: this token or client network sent more of these calls than it may. */
  tooManyRequests: "Too many requests of this kind. Wait a moment and try again.",
  /** 429: the organisation has more money movements waiting than are queued. */
  organisationBusy: "Too many payments for this organisation at once. Wait a moment and try again.",
  /** 503: no database connection (or queue slot) came free in time. */
  busy: "The server is busy. Try again in a few seconds.",
} as const;
