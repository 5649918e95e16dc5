import { fillPath, pathParamNames, type RouteDefinition, routeTable } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSessionToken } from "../src/modules/auth/sessions.ts";
import { buildHierarchy, fingerprints } from "./fixtures.ts";
import { buildTestApp } from "./helpers.ts";

/**
 * Generated from the route table: every route that needs a token is called by callers who must not reach
 * the target, and must refuse without leaking it. New routes are covered by being in the table.
 */
const guarded = routeTable.filter((route) => route.auth !== "none");

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

async function call(route: RouteDefinition, query: Record<string, string | number>, paramValue: number) {
  const params = Object.fromEntries(pathParamNames(route.path).map((name) => [name, paramValue]));
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  const res = await app.inject({
    method: route.method,
    url: `${fillPath(route.path, params)}${search ? `?${search}` : ""}`,
    ...(route.method === "GET"
      ? {}
      : { payload: { targetAccountId: paramValue, targetOrganizationId: paramValue } }),
  });
  return { status: res.statusCode, body: res.body };
}

function expectRefusedWithoutLeak(
  result: { status: number; body: string },
  victim: Parameters<typeof fingerprints>[0],
) {
  expect([401, 403, 404]).toContain(result.status);
  expect(JSON.parse(result.body)).toMatchObject({ success: false });
  for (const mark of fingerprints(victim)) expect(result.body).not.toContain(mark);
}

describe.each(guarded.map((route) => [`${route.method} ${route.path}`, route] as const))(
  "%s",
  (_name, route) => {
    it("(a) refuses a call without a token", async () => {
      const { O1 } = world.accounts;
      const result = await call(route, { targetAccountId: O1.id }, O1.id);
      expect(result.status).toBe(401);
      expect(JSON.parse(result.body)).toEqual({ success: false, message: "No auth token provided" });
    });

    it("(b) refuses a token of an unrelated organisation", async () => {
      const { O1 } = world.accounts;
      expectRefusedWithoutLeak(
        await call(route, { token: world.members.uOwner.token, targetAccountId: O1.id }, O1.id),
        O1,
      );
    });

    it("(c) refuses an organisation admin acting on its parent reseller", async () => {
      const { R1 } = world.accounts;
      expectRefusedWithoutLeak(
        await call(route, { token: world.members.o1Admin.token, targetAccountId: R1.id }, R1.id),
        R1,
      );
    });

    it("(d) refuses a reseller acting on another partner's organisation", async () => {
      const { O2 } = world.accounts;
      expectRefusedWithoutLeak(
        await call(route, { token: world.members.r1Owner.token, targetAccountId: O2.id }, O2.id),
        O2,
      );
    });

    it("(e) never answers another tenant's data through path ids, even on the caller's own account", async () => {
      const { O2 } = world.accounts;
      // A token of its own: a route such as logout may revoke the token it is called with.
      const token = await issueSessionToken(
        app.context.database.db,
        world.members.o1Owner.userId,
        world.accounts.O1.id,
      );
      const result = await call(route, { token }, O2.id);
      for (const mark of fingerprints(O2)) expect(result.body).not.toContain(mark);
    });
  },
);

describe("the matrix itself", () => {
  it("covers every guarded route of the table", () => {
    expect(guarded.length).toBeGreaterThan(0);
    expect(guarded.length).toBe(
      routeTable.filter((r) => r.auth === "token" || r.auth === "adminToken").length,
    );
  });

  it("lets the right callers through (so refusals above are not an always-refusing hook)", async () => {
    const { O1, A1, O2 } = world.accounts;
    const asOwner = await app.inject({
      method: "GET",
      url: `/api/v1/account?token=${world.members.o1Owner.token}`,
    });
    expect(asOwner.json().account.id).toBe(O1.id);
    const partnerOnAgent = await app.inject({
      method: "GET",
      url: `/api/v1/account?token=${world.members.p1Owner.token}&targetAccountId=${A1.id}`,
    });
    expect(partnerOnAgent.json().account.id).toBe(A1.id);
    const superAdmin = await app.inject({
      method: "GET",
      url: `/api/v1/account?token=${world.members.superAdmin.token}&targetAccountId=${O2.id}`,
    });
    expect(superAdmin.json().account.id).toBe(O2.id);
  });
});
