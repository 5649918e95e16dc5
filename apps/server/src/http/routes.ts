import type { RouteDefinition } from "@switchboard/api";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { AppContext } from "../app-context.ts";
import type { Access } from "../modules/auth/access.ts";
import { ApiError } from "./api-error.ts";
import { parseRequestPart } from "./validation.ts";

type Parsed<S> = [Exclude<S, undefined>] extends [z.ZodType] ? z.output<Exclude<S, undefined>> : undefined;

export type RouteInput<T extends RouteDefinition> = {
  query: Parsed<T["query"]>;
  params: Parsed<T["params"]>;
  body: Parsed<T["body"]>;
};

export type HandlerContext = {
  app: AppContext;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The resolved caller and target account. Only for routes that need a token (`auth` other than none). */
  access: Access;
};

export type RouteHandler<T extends RouteDefinition> = (
  input: RouteInput<T>,
  ctx: HandlerContext,
) => Promise<Parsed<T["response"]> | unknown> | Parsed<T["response"]> | unknown;

/** A route of the table bound to the handler that implements it. */
export type BoundRoute = { route: RouteDefinition; handler: RouteHandler<RouteDefinition> };

export function handle<T extends RouteDefinition>(route: T, handler: RouteHandler<T>): BoundRoute {
  return { route, handler: handler as unknown as RouteHandler<RouteDefinition> };
}

const toFastifyPath = (path: string) => path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");

/**
 * Registers every route of the table with its handler. A table route without a handler, or a handler
 * for a route that is not in the table, stops start-up: the table is the whole API.
 */
export function registerRoutes(
  app: FastifyInstance,
  context: AppContext,
  table: readonly RouteDefinition[],
  bound: readonly BoundRoute[],
): void {
  const byId = new Map(bound.map((b) => [b.route.id, b]));
  for (const b of bound) {
    if (!table.includes(b.route))
      throw new Error(`Handler for ${b.route.id} has no entry in the route table`);
  }
  const checkResponses = context.config.env !== "production";
  for (const route of table) {
    const entry = byId.get(route.id);
    if (!entry) throw new Error(`Route ${route.method} ${route.path} (${route.id}) has no handler`);
    app.route({
      method: route.method,
      url: toFastifyPath(route.path),
      handler: async (request, reply) => {
        const access = route.auth === "none" ? undefined : await context.access.authorize(request, route);
        const input = {
          query: route.query ? parseRequestPart(route.query, request.query ?? {}, "query") : undefined,
          params: route.params ? parseRequestPart(route.params, request.params ?? {}, "params") : undefined,
          body: route.body ? parseRequestPart(route.body, request.body ?? {}, "body") : undefined,
        };
        const result = await entry.handler(input as RouteInput<RouteDefinition>, {
          app: context,
          request,
          reply,
          access: access as Access,
        });
        if (reply.sent) return reply;
        if (checkResponses && route.response) {
          const checked = route.response.safeParse(result);
          if (!checked.success) {
            request.log.error(
              { issues: checked.error.issues, route: route.id },
              "response does not match schema",
            );
            throw new ApiError(500, "Internal server error");
          }
        }
        return result;
      },
    });
  }
}
