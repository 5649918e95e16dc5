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
