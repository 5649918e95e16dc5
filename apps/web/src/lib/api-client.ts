import { createApiClient } from "@switchboard/api";
import { getTargetAccountId, readStoredViewingAs, readToken } from "./session.ts";

/**
 * The stored session as the Authorization header (issue 32 item 19): the web app never puts its token in an
 * address, where logs, history and referrers would keep it. The server still takes `?token=` from the
 * catalogue's other clients.
 */
export function authHeaders(token: string | null = readToken()): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

function hasAuthorization(init: RequestInit | undefined): boolean {
  if (!init?.headers) return false;
  return new Headers(init.headers).has("authorization");
}

/**
 * Adds the viewing-as value in force to every call that carries a token (header or query), so the server grants the same
 * permission flags the shell shows (it reads `viewingAs` on every call, default the rank's own).
 */
export function withViewingAs(
  doFetch: typeof fetch,
  viewingAs: () => string | null = readStoredViewingAs,
): typeof fetch {
  return (input, init) => {
    if (typeof input !== "string") return doFetch(input, init);
    const value = viewingAs();
    if (!value) return doFetch(input, init);
    const url = new URL(input, "http://same-origin.invalid");
    const signedIn = url.searchParams.has("token") || hasAuthorization(init);
    if (!signedIn || url.searchParams.has("viewingAs")) return doFetch(input, init);
    url.searchParams.set("viewingAs", value);
    const text =
      url.origin === "http://same-origin.invalid" ? `${url.pathname}${url.search}` : url.toString();
    return doFetch(text, init);
  };
}

/**
 * The typed API client of the web app (same origin): every call carries the stored token (as a Bearer
 * header), the account in view as `targetAccountId` (set by the account layer) and the viewing-as value. Import it only from lazy
 * chunks (overlays, feature pages, their api.ts): @switchboard/api carries zod and every route schema,
 * which the /app shell's initial bundle must not.
 */
export const apiClient = createApiClient({
  getToken: () => readToken(),
  tokenIn: "header",
  getTargetAccountId: () => getTargetAccountId(),
  fetch: withViewingAs((input, init) => fetch(input, init)),
});
