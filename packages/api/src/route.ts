import type { PermissionFlag } from "@switchboard/core";
import type { z } from "zod";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call a route: `none` is public, `token` needs a signed-in caller (query `token` or
 * `Authorization: Bearer`), `adminToken` needs a super admin's token as the catalogue's `adminToken`.
 */
export type RouteAuth = "none" | "token" | "adminToken";

export type RouteDefinition<
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends RouteAuth = RouteAuth,
> = {
  /** Stable identifier, used as the OpenAPI operationId and by the typed client. */
  id: string;
  method: HttpMethod;
  /** Path as the call catalogue writes it: `/api/v2/templates/{id}`. */
  path: string;
  summary: string;
  tag: string;
  auth: A;
  /** Permission flag of product spec §6 that the caller must hold for the target account. */
  permission?: PermissionFlag;
  /**
   * Only a person's session may call it, never an organisation API token: it acts on the signed-in person
   * (their e-mail, phone, sessions) or makes credentials.
   */
  sessionOnly?: true;
  /**
   * A GET that changes something: a WebSocket upgrade that places a billable call. It is treated as the
   * write it is, so a read-only API token is refused it as it is any POST.
   */
  writes?: true;
  /**
   * A body field that, sent without any token, makes the call public (the catalogue's "the same path
   * without token ... with slug added"): the handler then gets no `access` and must act on that field only.
   */
  anonymousWith?: string;
  query?: Q;
  params?: P;
  body?: B;
  /**
   * Content type of a non-JSON request body. `multipart/form-data` routes have no `body` schema: the
   * handler reads the parts itself (file type and size checks), and the client sends `form`.
   */
  consumes?: "multipart/form-data";
  /** Schema of the success answer (JSON). Omitted for answers that are not JSON (CSV, files). */
  response?: R;
  /** Content type of a non-JSON answer. */
  produces?: string;
};

/**
 * A route of the table, typed as written: its schemas, and its auth as a literal, so that handlers get
 * `access` only where a token is needed. A route without a `response` schema answers no JSON (`never`).
 */
export function defineRoute<
  A extends RouteAuth,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = never,
>(route: RouteDefinition<Q, P, B, R, A>): RouteDefinition<Q, P, B, R, A> {
  return route;
}

/** Does a call of this route change something (every method but GET, and a GET marked `writes`)? */
export function isWriteRoute(route: Pick<RouteDefinition, "method" | "writes">): boolean {
  return route.method !== "GET" || route.writes === true;
}

type Input<S> = [Exclude<S, undefined>] extends [z.ZodType] ? z.input<Exclude<S, undefined>> : undefined;
type Output<S> = [Exclude<S, undefined>] extends [z.ZodType] ? z.output<Exclude<S, undefined>> : unknown;

export type RouteQuery<T extends RouteDefinition> = Input<T["query"]>;
export type RouteParams<T extends RouteDefinition> = Input<T["params"]>;
export type RouteBody<T extends RouteDefinition> = Input<T["body"]>;
export type RouteResponse<T extends RouteDefinition> = Output<T["response"]>;

/** Names of the `{param}` placeholders of a catalogue path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] as string);
}

/** Fills `{param}` placeholders, URL-encoding each value. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
