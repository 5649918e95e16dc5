import {
  type getAccount,
  type logout as logoutRoute,
  type oneTimeAuth as oneTimeAuthRoute,
  type RouteResponse,
  refusalMessage,
} from "@switchboard/api";

/**
 * The few calls the /app shell makes before any page loads: the account in view, logout, one-time-token
 * sign-in and the host's domain lookup. They use fetch directly, with the typed client's conventions
 * (the token as a Bearer header, targetAccountId in the query, `{success:false, message}` errors), because the typed client
 * carries zod and every schema, which the shell's initial bundle must not. Feature code uses
 * `apiClient` (lib/api-client.ts) from lazy chunks. The paths are checked against the route table in
 * shell-api.test.ts.
 */

export const SHELL_PATHS = {
  getAccount: "/api/v1/account",
  logout: "/api/v1/logout",
  oneTimeAuth: "/api/v1/oneTimeAuth",
  domainLookup: "/api/v1/domain/lookup",
} as const;

export type AccountView = RouteResponse<typeof getAccount>;
export type OneTimeAuthAnswer = RouteResponse<typeof oneTimeAuthRoute>;
export type LogoutAnswer = RouteResponse<typeof logoutRoute>;

/** A failed call: the HTTP status (0 when the network failed) and the server's message. */
export class RequestError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = "RequestError";
    this.status = status;
  }
}

/** The HTTP status of an error thrown by this module or the typed client (0 when unknown). */
export function errorStatus(error: unknown): number {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number")
    return error.status;
  return 0;
}

export function errorMessage(error: unknown, fallback = "Something went wrong."): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

type Query = Record<string, string | number | boolean | null | undefined>;

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export async function requestJson<T>(
  method: "GET" | "POST" | "DELETE",
  path: string,
  options: {
    query?: Query;
    body?: unknown;
    signal?: AbortSignal;
    fetch?: typeof fetch;
    /** The session, sent as `Authorization: Bearer` (never in the address). */
    token?: string;
  } = {},
): Promise<T> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await doFetch(`${path}${queryString(options.query ?? {})}`, {
      method,
      signal: options.signal,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new RequestError(0, "The server could not be reached. Check your connection and try again.");
  }
  const isJson = response.headers.get("content-type")?.includes("application/json") ?? false;
  const payload: unknown = isJson ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    throw new RequestError(response.status, refusalMessage(response, payload));
  }
  return payload as T;
}

/** GET /api/v1/account: the account in view (default the caller's) with the caller and the flags. */
export async function fetchAccountView(input: {
  token: string;
  targetAccountId: number | null;
  viewingAs: string | null;
  signal?: AbortSignal;
}): Promise<AccountView> {
  const answer = await requestJson<AccountView | { success: false; message?: string }>(
    "GET",
    SHELL_PATHS.getAccount,
    {
      query: { targetAccountId: input.targetAccountId, viewingAs: input.viewingAs },
      token: input.token,
      signal: input.signal,
    },
  );
  // The catalogue's rule: an account fetch answering success false counts as failed (and logs out).
  if (answer?.success !== true) {
    const message = answer && "message" in answer ? answer.message : undefined;
    throw new RequestError(200, message || "Account not found");
  }
  return answer;
}

/** GET /api/v1/oneTimeAuth: exchanges a one-time token (invitation link, mobile hand-off) for a session. */
export function exchangeOneTimeToken(oneTimeToken: string): Promise<OneTimeAuthAnswer> {
  return requestJson<OneTimeAuthAnswer>("GET", SHELL_PATHS.oneTimeAuth, { query: { oneTimeToken } });
}

/** POST /api/v1/logout: revokes the token (everywhere: every session of the user). */
export function revokeToken(token: string, everywhere = false): Promise<LogoutAnswer> {
  return requestJson<LogoutAnswer>("POST", SHELL_PATHS.logout, {
    query: everywhere ? { everywhere: true } : {},
    token,
  });
}
