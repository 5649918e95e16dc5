import { defineRoute } from "@switchboard/api";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { testConfig } from "../../test/helpers.ts";
import { ApiError } from "../api-error.ts";
import { installErrorHandler } from "./error-handler.ts";
import { handle, type RoutesContext, registerRoutes } from "./routes.ts";
import { createWriteListeners } from "./write-listeners.ts";

const createThing = defineRoute({
  id: "createThing",
  method: "POST",
  path: "/api/v1/things/{group}",
  summary: "test route",
  tag: "Test",
  auth: "none",
  params: z.object({ group: z.coerce.number().int().positive() }),
  query: z.object({ dryRun: z.enum(["true", "false"]).optional() }),
  body: z.object({ email: z.email(), tags: z.array(z.string()).max(2).default([]) }),
  response: z.object({
    success: z.literal(true),
    group: z.number(),
    email: z.string(),
    tags: z.array(z.string()),
  }),
});

const broken = defineRoute({
  id: "broken",
  method: "GET",
  path: "/api/v1/broken",
  summary: "answers the wrong shape",
  tag: "Test",
  auth: "none",
  response: z.object({ success: z.literal(true) }),
});

const refuses = defineRoute({
  id: "refuses",
  method: "GET",
  path: "/api/v1/refuses",
  summary: "",
  tag: "Test",
  auth: "none",
});

/** The app's part of serving routes: no route of these tests needs a token, so none is ever checked. */
const routesContext = (): RoutesContext => ({
  config: testConfig(),
  access: { authorize: () => Promise.reject(new Error("no route of these tests needs a token")) },
  writes: createWriteListeners(),
});

async function appWith() {
  const app = Fastify();
  installErrorHandler(app);
  const context = routesContext();
  registerRoutes(
    app,
    context,
    [createThing, broken, refuses],
    [
      handle(createThing, ({ params, body }) => ({
        success: true as const,
        group: params.group,
        email: body.email,
        tags: body.tags,
      })),
      // The compiler refuses this answer (see routes.type-test.ts); the schema check catches what it cannot.
      handle(broken, () => ({ success: "yes" }) as never),
      handle(refuses, () => {
        throw new ApiError(403, "Account type does not match");
      }),
    ],
  );
  return app;
}

describe("routes from the table", () => {
  it("parses params, query and body with the route's schemas", async () => {
    const app = await appWith();
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/things/7?dryRun=true",
      payload: { email: "a@b.co" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, group: 7, email: "a@b.co", tags: [] });
  });

  it("a validation error answers 400 naming the field", async () => {
    const app = await appWith();
    const bad = await app.inject({
      method: "POST",
      url: "/api/v1/things/7",
      payload: { email: "not-an-email" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, message: "email: Invalid email address" });

    const nested = await app.inject({
      method: "POST",
      url: "/api/v1/things/7",
      payload: { email: "a@b.co", tags: ["x", 5] },
    });
    expect(nested.json().message).toMatch(/^tags\.1: /);

    const param = await app.inject({
      method: "POST",
      url: "/api/v1/things/zero",
      payload: { email: "a@b.co" },
    });
    expect(param.statusCode).toBe(400);
    expect(param.json().message).toMatch(/^group: /);

    const query = await app.inject({
      method: "POST",
      url: "/api/v1/things/7?dryRun=maybe",
      payload: { email: "a@b.co" },
    });
    expect(query.json().message).toMatch(/^dryRun: /);
  });

  it("malformed JSON answers 400 in the error shape", async () => {
    const app = await appWith();
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/things/7",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: "Request body is not valid JSON." });
  });

  it("an ApiError keeps its status and message", async () => {
    const app = await appWith();
    const res = await app.inject({ method: "GET", url: "/api/v1/refuses" });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: "Account type does not match" });
  });

  it("an answer that breaks its response schema is a 500, not a silent contract break", async () => {
    const app = await appWith();
    const res = await app.inject({ method: "GET", url: "/api/v1/broken" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: "Internal server error" });
  });

  it("refuses to start with a table route that has no handler, or a handler outside the table", () => {
    const context = routesContext();
    expect(() =>
      registerRoutes(Fastify(), context, [createThing, broken], [handle(createThing, () => ({}) as never)]),
    ).toThrow("Route GET /api/v1/broken (broken) has no handler");
    expect(() => registerRoutes(Fastify(), context, [], [handle(broken, () => ({}) as never)])).toThrow(
      "Handler for broken has no entry in the route table",
    );
  });
});
