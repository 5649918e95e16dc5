import { Readable } from "node:stream";
import type { WebSocket } from "@fastify/websocket";
import type { RouteDefinition } from "@switchboard/api";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Access, AccessResolver } from "../access/access.ts";
import { ApiError } from "../api-error.ts";
import type { Config } from "../config.ts";
import { parseRequestPart } from "./validation.ts";
import type { WriteListeners } from "./write-listeners.ts";

type Parsed<S> = [Exclude<S, undefined>] extends [z.ZodType] ? z.output<Exclude<S, undefined>> : undefined;

export type RouteInput<T extends RouteDefinition> = {
  query: Parsed<T["query"]>;
  params: Parsed<T["params"]>;
  body: Parsed<T["body"]>;
};

/** A route's query as its handler receives it (the schema's output): services take their inputs as these. */
export type QueryOf<T extends RouteDefinition> = RouteInput<T>["query"];
/** A route's body as its handler receives it (the schema's output). */
export type BodyOf<T extends RouteDefinition> = RouteInput<T>["body"];

/**
 * What serving the routes takes of the app (whose context holds these among its services): its mode (answers
 * are checked against their schema outside production), the access check of calls that need a token, and the
 * listeners told after each call that may have written.
 */
export type RoutesContext = {
  config: Pick<Config, "env">;
  access: Pick<AccessResolver, "authorize">;
  writes: Pick<WriteListeners, "wrote">;
};

/** What a handler gets of its call. What it needs of the app, its module hands it when it makes the routes. */
export type HandlerContext<T extends RouteDefinition = RouteDefinition> = {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The resolved caller and target account: only on routes that need a token (`auth` other than none). */
  access: T["auth"] extends "none" ? undefined : Access;
  /** Aborted when the client goes away before the answer is complete (for long or streamed answers). */
  signal: AbortSignal;
  /** The open WebSocket, for a route that `produces: "websocket"` (its handler runs once it is open). */
  socket?: WebSocket;
};

/**
 * A streamed answer: a handler of a route that `produces: "text/event-stream"` returns `eventStream(events)`
 * after its checks (which still answer JSON errors), and each `{ event, data }` is written as a server-sent
 * event (`event: name` and one `data:` line of JSON) as soon as it is produced.
 */
export class EventStreamAnswer {
  constructor(readonly events: AsyncIterable<{ event: string; data: unknown }>) {}
}

export function eventStream(events: AsyncIterable<{ event: string; data: unknown }>): EventStreamAnswer {
  return new EventStreamAnswer(events);
}

/**
 * An answer already serialised (a cached one): sent as it is, with the JSON content type. Outside
 * production it is still checked against the route's response schema, as every answer is.
 */
export class JsonTextAnswer {
  constructor(readonly text: string) {}
}

async function* serverSentEvents(
  events: AsyncIterable<{ event: string; data: unknown }>,
): AsyncGenerator<string> {
  for await (const { event, data } of events) yield `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

type ResponseSchemaOf<T extends RouteDefinition> =
  T extends RouteDefinition<z.ZodType, z.ZodType, z.ZodType, infer R> ? R : never;

/**
 * What a handler may answer: the route's response (checked by the compiler, and against the schema outside
 * production), or one of the explicit other answers: a serialised JSON text (a cached answer), server-sent
 * events, or the reply itself when the handler sent it (TwiML, CSV, a file). A route without a response
 * schema answers only by sending the reply (or nothing, for a WebSocket).
 */
export type RouteAnswer<T extends RouteDefinition> = [ResponseSchemaOf<T>] extends [never]
  ? // biome-ignore lint/suspicious/noConfusingVoidType: a WebSocket handler's promise resolves to nothing.
    FastifyReply | EventStreamAnswer | undefined | void
  : z.output<ResponseSchemaOf<T>> | JsonTextAnswer | EventStreamAnswer | FastifyReply;

export type RouteHandler<T extends RouteDefinition> = (
  input: RouteInput<T>,
  ctx: HandlerContext<T>,
) => Promise<RouteAnswer<T>> | RouteAnswer<T>;

/** A route of the table bound to the handler that implements it. */
export type BoundRoute = {
  route: RouteDefinition;
  handler: (input: RouteInput<RouteDefinition>, ctx: HandlerContext) => unknown;
};

export function handle<T extends RouteDefinition>(route: T, handler: RouteHandler<T>): BoundRoute {
  return { route, handler: handler as unknown as BoundRoute["handler"] };
}

const toFastifyPath = (path: string) => path.replace(/\{([A-Za-z0-9_]+)\}/g, ":$1");

const goneSignals = new WeakMap<FastifyReply, AbortSignal>();

/**
 * Aborted when the client goes away before the answer is complete. Made when a handler first asks (few do:
 * long or streamed answers), so other calls pay nothing for it.
 */
function clientGone(reply: FastifyReply): AbortSignal {
  let signal = goneSignals.get(reply);
  if (signal) return signal;
  const aborted = new AbortController();
  signal = aborted.signal;
  goneSignals.set(reply, signal);
  if (reply.raw.destroyed && !reply.raw.writableFinished) aborted.abort();
  else
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) aborted.abort();
    });
  return signal;
}

/**
 * A call of a route that may be public (`anonymousWith`): no token at all (neither `token` nor an
 * Authorization header) and the named body field present. Any token present is checked as usual.
 */
function anonymousCall(route: RouteDefinition, request: FastifyRequest): boolean {
  if (!route.anonymousWith) return false;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (request.headers.authorization !== undefined || query.token !== undefined) return false;
  const body = request.body;
  if (!body || typeof body !== "object") return false;
  const value = (body as Record<string, unknown>)[route.anonymousWith];
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Registers every route of the table with its handler. A table route without a handler, or a handler
 * for a route that is not in the table, stops start-up: the table is the whole API.
 */
export function registerRoutes(
  app: FastifyInstance,
  context: RoutesContext,
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
    if (route.produces === "websocket") {
      registerWebSocketRoute(app, context, route, entry);
      continue;
    }
    app.route({
      method: route.method,
      url: toFastifyPath(route.path),
      handler: async (request, reply) => {
        let access: Access | undefined;
        try {
          access =
            route.auth === "none" || anonymousCall(route, request)
              ? undefined
              : await context.access.authorize(request, route);
          const input = {
            query: route.query ? parseRequestPart(route.query, request.query ?? {}, "query") : undefined,
            params: route.params ? parseRequestPart(route.params, request.params ?? {}, "params") : undefined,
            body: route.body ? parseRequestPart(route.body, request.body ?? {}, "body") : undefined,
          };
          const result = await entry.handler(input as RouteInput<RouteDefinition>, {
            request,
            reply,
            access: access as Access,
            get signal() {
              return clientGone(reply);
            },
          });
          if (reply.sent) return reply;
          if (result instanceof EventStreamAnswer) {
            return reply
              .header("content-type", "text/event-stream; charset=utf-8")
              .header("cache-control", "no-cache, no-transform")
              .header("x-accel-buffering", "no")
              .send(Readable.from(serverSentEvents(result.events)));
          }
          const isText = result instanceof JsonTextAnswer;
          if (checkResponses && route.response) {
            const checked = route.response.safeParse(isText ? JSON.parse(result.text) : result);
            if (!checked.success) {
              request.log.error(
                { issues: checked.error.issues, route: route.id },
                "response does not match schema",
              );
              throw new ApiError(500, "Internal server error");
            }
          }
          if (isText)
            return reply.header("content-type", "application/json; charset=utf-8").send(result.text);
          return result;
        } finally {
          if (route.method !== "GET") context.writes.wrote(access);
        }
      },
    });
  }
}

/**
 * A WebSocket route (`produces: "websocket"`, @fastify/websocket): authorisation and the query are checked
 * before the upgrade, so a refused connection gets the same JSON error (and status) as any call; a plain GET
 * that passes them answers 426. The handler runs with the open socket in its context.
 */
function registerWebSocketRoute(
  app: FastifyInstance,
  context: RoutesContext,
  route: RouteDefinition,
  entry: BoundRoute,
): void {
  const prepared = new WeakMap<
    FastifyRequest,
    { access: Access | undefined; query: unknown; params: unknown }
  >();
  app.route({
    method: "GET",
    url: toFastifyPath(route.path),
    preValidation: async (request) => {
      const access = route.auth === "none" ? undefined : await context.access.authorize(request, route);
      const query = route.query ? parseRequestPart(route.query, request.query ?? {}, "query") : undefined;
      const params = route.params
        ? parseRequestPart(route.params, request.params ?? {}, "params")
        : undefined;
      prepared.set(request, { access, query, params });
    },
    handler: async () => {
      throw new ApiError(426, "Connect to this address with a WebSocket.");
    },
    wsHandler: (socket, request) => {
      const state = prepared.get(request);
      const aborted = new AbortController();
      socket.once("close", () => aborted.abort());
      Promise.resolve(
        entry.handler(
          { query: state?.query, params: state?.params, body: undefined } as RouteInput<RouteDefinition>,
          {
            request,
            reply: undefined as unknown as FastifyReply,
            access: state?.access as Access,
            signal: aborted.signal,
            socket,
          },
        ),
      ).catch((error: unknown) => {
        request.log.error({ err: error, route: route.id }, "websocket handler failed");
        socket.close(1011, "Internal server error");
      });
    },
  });
}
