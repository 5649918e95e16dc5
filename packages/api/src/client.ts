import { ApiRequestError } from "./errors.ts";
import { refusalMessage } from "./refusal-message.ts";
import {
  fillPath,
  type RouteBody,
  type RouteDefinition,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
} from "./route.ts";

/** Paging values are sent only when they are positive numbers (call catalogue §5). */
const PAGING_KEYS = new Set(["page", "pageSize", "limit", "offset"]);

/**
 * A browser WebSocket cannot send headers: it offers this subprotocol followed by the session token
 * (`new WebSocket(url, [WS_BEARER_PROTOCOL, token])`) instead of `?token=` in the address. The server takes
 * the token from Sec-WebSocket-Protocol and answers with this protocol only.
 */
export const WS_BEARER_PROTOCOL = "switchboard.bearer";

export type ApiClientOptions = {
  /** Origin of the API; empty for same-origin requests from the web app. */
  baseUrl?: string;
  /** The signed-in caller's token, sent as the `token` query parameter (or a header: `tokenIn`). */
  getToken?: () => string | null | undefined;
  /**
   * Where the token goes: the `token` query parameter, as the catalogue's clients send it (default), or an
   * `Authorization: Bearer` header, which keeps it out of addresses (logs, history, referrers). The server
   * accepts both.
   */
  tokenIn?: "query" | "header";
  /** The account being acted on; sent as `targetAccountId` unless the call gives its own. */
  getTargetAccountId?: () => string | number | null | undefined;
  fetch?: typeof fetch;
};

export type CallInput<T extends RouteDefinition> = {
  query?: RouteQuery<T>;
  params?: RouteParams<T>;
  body?: RouteBody<T>;
  /** The parts of a `multipart/form-data` call (route.consumes), e.g. an image upload. */
  form?: FormData;
  signal?: AbortSignal;
};

/** Builds the query string by the catalogue's conventions: empties omitted, paging only when positive. */
export function buildQuery(values: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === "") continue;
    if (
      PAGING_KEYS.has(key) &&
      !(typeof value === "number" && value > 0) &&
      !(typeof value === "string" && Number(value) > 0)
    ) {
      continue;
    }
    search.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function createApiClient(options: ApiClientOptions = {}) {
  const doFetch =
    options.fetch ?? ((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
  const baseUrl = options.baseUrl ?? "";

  async function call<T extends RouteDefinition>(
    route: T,
    input: CallInput<T> = {},
  ): Promise<RouteResponse<T>> {
    const query: Record<string, unknown> = {};
    const headers: Record<string, string> = {};
    // A public use of a guarded path (a payment link's checkout: "the same path without token ... with
    // slug added") goes without the caller's token.
    const anonymous =
      route.anonymousWith !== undefined &&
      typeof (input.body as Record<string, unknown> | undefined)?.[route.anonymousWith] === "string";
    if (route.auth !== "none" && !anonymous) {
      const token = options.getToken?.();
      if (options.tokenIn === "header") {
        if (token) headers.authorization = `Bearer ${token}`;
      } else query.token = token;
      query.targetAccountId = options.getTargetAccountId?.();
    }
    Object.assign(query, input.query ?? {});
    const url = `${baseUrl}${fillPath(route.path, input.params as Record<string, string | number> | undefined)}${buildQuery(query)}`;
    const init: RequestInit = { method: route.method, signal: input.signal };
    if (input.form !== undefined) {
      init.body = input.form;
    } else if (input.body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(input.body);
    }
    if (Object.keys(headers).length > 0) init.headers = headers;
    const response = await doFetch(url, init);
    const isJson = response.headers.get("content-type")?.includes("application/json") ?? false;
    const payload: unknown = isJson ? await response.json() : await response.text();
    if (!response.ok) {
      throw new ApiRequestError(response.status, refusalMessage(response, payload), payload);
    }
    return payload as RouteResponse<T>;
  }

  return { call };
}

export type ApiClient = ReturnType<typeof createApiClient>;
