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

export type ApiClientOptions = {
  /** Origin of the API; empty for same-origin requests from the web app. */
  baseUrl?: string;
  /** The signed-in caller's token, sent as the `token` query parameter. */
  getToken?: () => string | null | undefined;
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
    // A public use of a guarded path (a payment link's checkout: "the same path without token ... with
    // slug added") goes without the caller's token.
    const anonymous =
      route.anonymousWith !== undefined &&
      typeof (input.body as Record<string, unknown> | undefined)?.[route.anonymousWith] === "string";
    if (route.auth !== "none" && !anonymous) {
      query.token = options.getToken?.();
      query.targetAccountId = options.getTargetAccountId?.();
    }
    Object.assign(query, input.query ?? {});
    const url = `${baseUrl}${fillPath(route.path, input.params as Record<string, string | number> | undefined)}${buildQuery(query)}`;
    const init: RequestInit = { method: route.method, signal: input.signal };
    if (input.form !== undefined) {
      init.body = input.form;
    } else if (input.body !== undefined) {
      init.headers = { "content-type": "application/json" };
      init.body = JSON.stringify(input.body);
    }
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
