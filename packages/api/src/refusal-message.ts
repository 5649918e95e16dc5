/**
 * The message of a refused answer: the server's `{ success: false, message }`, else "<status> <text>".
 * Free of zod so that the web shell's first bundle can use it too.
 */
export function refusalMessage(response: { status: number; statusText: string }, payload: unknown): string {
  return typeof payload === "object" &&
    payload !== null &&
    "message" in payload &&
    typeof payload.message === "string"
    ? payload.message
    : `${response.status} ${response.statusText}`.trim();
}
