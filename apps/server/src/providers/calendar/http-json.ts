import { CalendarAuthError, CalendarError } from "./calendar-api.ts";

/** How long one call to a calendar provider may take. */
const TIMEOUT_MS = 10_000;

/**
 * One JSON call to a calendar provider's fixed API (an operator-configured address, not a user's, so not the
 * guarded outbound module). 401/403 and OAuth's invalid_grant become CalendarAuthError; other failures
 * CalendarError with the provider's own message where it gave one.
 */
export async function providerJson<T>(
  provider: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new CalendarError(`${provider} could not be reached (${(error as Error).message}).`);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.ok) return body as T;
  const message = providerMessage(body) ?? response.statusText;
  if (
    response.status === 401 ||
    response.status === 403 ||
    (body as { error?: unknown })?.error === "invalid_grant"
  ) {
    throw new CalendarAuthError(`${provider} refused the connection: ${message}`);
  }
  throw new CalendarError(`${provider} answered ${response.status}: ${message}`, response.status);
}

function providerMessage(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  if (typeof record.error_description === "string") return record.error_description;
  if (typeof record.message === "string") return record.message;
  if (typeof error === "string") return error;
  return null;
}
