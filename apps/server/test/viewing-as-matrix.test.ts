import { fillPath, pathParamNames, type RouteDefinition, routeTable } from "@switchboard/api";
import { PERMISSION_FLAGS, VIEWING_AS_VALUES } from "@switchboard/core";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../vitest.time-limits.ts";
import type { Access } from "../src/access/access.ts";
import { accounts, memberships, users } from "../src/db/schema/index.ts";
import { issueSessionToken } from "../src/modules/auth/sessions.ts";
import { buildHierarchy } from "./fixtures.ts";
import { buildTestApp } from "./helpers.ts";

/**
 * Viewing-as only ever narrows: for every route of the table, every role (organisation owner and admin,
 * reseller, partner, agent account user, super admin) and every viewingAs value, the caller is let
 * through no more often, and holds no flag more, than with its own view.
 */
const guarded = routeTable.filter((route) => route.auth === "token");

/**
 * The fields of a route that the authorisation step reads. Routes alike in them are authorised alike, so the
 * first test tries one route of each shape rather than all of them (tens of thousands of steps); the last
 * test watches which fields the step reads, so a new one cannot slip past this list.
 */
const AUTHORISATION_FIELDS = ["auth", "sessionOnly", "method", "writes", "permission"] as const;
const shapeOf = (route: RouteDefinition) =>
  JSON.stringify(AUTHORISATION_FIELDS.map((field) => route[field as keyof RouteDefinition] ?? null));
const oneRoutePerShape = [...new Map(guarded.map((route) => [shapeOf(route), route])).values()];
const VIEWS = [...VIEWING_AS_VALUES, "nonsense"] as const;
const ROLES = [
  "organisation owner",
  "organisation admin",
  "reseller",
  "partner",
  "agent account user",
  "super admin",
] as const;

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let callers: Record<(typeof ROLES)[number], { token: string; targets: number[] }>;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  const { O1, A1, R1, P1 } = world.accounts;
  const db = app.context.database.db;
  const [agentUser] = await db
    .insert(users)
    .values({ email: `agent-user-${world.tag}@example.com`, fullName: "Agent user" })
    .returning();
  if (!agentUser) throw new Error("fixture");
  await db.insert(memberships).values({ userId: agentUser.id, accountId: A1.id, role: "owner" });
  callers = {
    "organisation owner": { token: world.members.o1Owner.token, targets: [O1.id, A1.id] },
    "organisation admin": { token: world.members.o1Admin.token, targets: [O1.id, A1.id] },
    reseller: { token: world.members.r1Owner.token, targets: [R1.id, O1.id, A1.id] },
    partner: { token: world.members.p1Owner.token, targets: [P1.id, R1.id, O1.id] },
    "agent account user": { token: await issueSessionToken(db, agentUser.id, A1.id), targets: [A1.id] },
    "super admin": { token: world.members.superAdmin.token, targets: [P1.id, O1.id, A1.id] },
  };
});
afterAll(async () => {
  await app.close();
});

/** The one authorisation step, as a route's hook runs it; null when it refuses. */
async function authorize(route: RouteDefinition, query: Record<string, string>): Promise<Access | null> {
  const request = { query, headers: {} } as unknown as FastifyRequest;
  try {
    return await app.context.access.authorize(request, route);
  } catch {
    return null;
  }
}

describe("viewing-as never raises a role", () => {
  // One test per role, so each stays well inside the time limit on a busy machine.
  it.each(ROLES)(
    "%s, on every route, target and viewingAs value: no more access and no more flags than its own view",
    async (role) => {
      let compared = 0;
      const { token, targets } = callers[role];
      for (const target of targets) {
        for (const route of oneRoutePerShape) {
          const own = await authorize(route, { token, targetAccountId: String(target) });
          for (const viewingAs of VIEWS) {
            const viewed = await authorize(route, { token, targetAccountId: String(target), viewingAs });
            const where = `${role} on ${target}, ${route.id}, viewingAs=${viewingAs}`;
            if (viewed && !own) expect.fail(`${where}: let through only when viewing as`);
            if (!viewed || !own) continue;
            for (const flag of PERMISSION_FLAGS)
              if (viewed.permissions[flag] && !own.permissions[flag])
                expect.fail(`${where}: gains ${flag} by viewing as`);
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(oneRoutePerShape.length);
    },
    within(60_000),
  );

  it("GET routes answer nothing more with viewingAs than without it, for every role", {
    timeout: within(60_000),
  }, async () => {
    const gets = guarded.filter((route) => route.method === "GET" && route.produces !== "websocket");
    let refused = 0;
    for (const [role, { token, targets }] of Object.entries(callers)) {
      const target = targets[0] as number;
      for (const route of gets) {
        const params = Object.fromEntries(pathParamNames(route.path).map((name) => [name, target]));
        const url = `${fillPath(route.path, params)}?token=${token}&targetAccountId=${target}`;
        const own = await app.inject({ method: "GET", url });
        // Only a refusal can be raised by viewing as: what its own view answers needs no second look.
        if (own.statusCode !== 403) continue;
        refused++;
        for (const viewingAs of VIEWS) {
          const viewed = await app.inject({ method: "GET", url: `${url}&viewingAs=${viewingAs}` });
          expect(viewed.statusCode, `${role} ${route.id} viewingAs=${viewingAs}`).toBe(403);
        }
      }
    }
    // The roles below super admin are refused some routes (the super admin's own, the partner's).
    expect(refused).toBeGreaterThan(0);
  });

  it("an organisation admin viewing as owner cannot delete the organisation, nor sees owner flags", async () => {
    const { O1 } = world.accounts;
    const token = world.members.o1Admin.token;
    const view = await app.inject({ method: "GET", url: `/api/v1/account?token=${token}&viewingAs=owner` });
    expect(view.statusCode).toBe(200);
    const permissions = view.json().permissions;
    expect(permissions).toMatchObject({
      canDeleteOrg: false,
      canViewBilling: false,
      canDeactivateOrg: false,
    });
    const deleted = await app.inject({
      method: "DELETE",
      url: `/api/v2/deleteOrganization?token=${token}&viewingAs=owner`,
      payload: { targetOrganizationId: O1.id },
    });
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json()).toEqual({ success: false, message: "You do not have permission to do this." });
    const [row] = await app.context.database.db.select().from(accounts).where(eq(accounts.id, O1.id));
    expect(row?.deletedAt).toBeNull();
  });

  it("the authorisation step reads no field of a route but those the matrix tells routes apart by", async () => {
    const read = new Set<string>();
    const watched = (route: RouteDefinition) =>
      new Proxy(route, {
        get(target, field, receiver) {
          if (typeof field === "string") read.add(field);
          return Reflect.get(target, field, receiver);
        },
      });
    for (const { token, targets } of Object.values(callers))
      for (const route of routeTable)
        await authorize(watched(route), { token, targetAccountId: String(targets[0]) });
    for (const field of read) expect(AUTHORISATION_FIELDS as readonly string[]).toContain(field);
    expect(oneRoutePerShape.length).toBeGreaterThan(3);
  });

  it("the organisation's owner still views as owner with the owner's flags", async () => {
    const token = world.members.o1Owner.token;
    const view = await app.inject({ method: "GET", url: `/api/v1/account?token=${token}&viewingAs=owner` });
    expect(view.json().permissions).toMatchObject({ canDeleteOrg: true, canViewBilling: true });
  });
});
