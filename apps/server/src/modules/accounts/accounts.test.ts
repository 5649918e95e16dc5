import { count } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts } from "../../db/schema/index.ts";
import { seedDemoData } from "../../db/seed.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

const getAccount = async (token: string, query = "") =>
  (await app.inject({ method: "GET", url: `/api/v1/account?token=${token}${query}` })).json();

describe("GET /api/v1/account", () => {
  it("answers the caller's own organisation with owner permissions", async () => {
    const body = await getAccount(world.members.o1Owner.token);
    expect(body).toMatchObject({
      success: true,
      account: {
        id: world.accounts.O1.id,
        accountType: "organization",
        organizationId: world.accounts.O1.id,
      },
      role: "owner",
      viewingAs: "admin",
      actingAsHigherRole: false,
    });
    expect(body.permissions).toMatchObject({
      canViewBilling: true,
      canDeleteOrg: true,
      canInspectJSON: false,
    });
  });

  it("an admin of the organisation does not get billing, delete or JSON inspection", async () => {
    const body = await getAccount(world.members.o1Admin.token);
    expect(body.role).toBe("admin");
    expect(body.permissions).toMatchObject({
      canViewOrg: true,
      canEditOrg: true,
      canViewBilling: false,
      canManageBilling: false,
      canDeleteOrg: false,
      canDeactivateOrg: false,
      canInspectJSON: false,
    });
  });

  it("a reseller viewing one of its organisations as itself holds every flag; viewing as admin does not", async () => {
    const target = `&targetAccountId=${world.accounts.O1.id}`;
    const asReseller = await getAccount(world.members.r1Owner.token, target);
    expect(asReseller).toMatchObject({
      viewingAs: "reseller",
      actingAsHigherRole: true,
      allowedViewingAs: ["reseller", "owner", "admin"],
    });
    expect(Object.values(asReseller.permissions).every(Boolean)).toBe(true);
    const asAdmin = await getAccount(world.members.r1Owner.token, `${target}&viewingAs=admin`);
    expect(asAdmin).toMatchObject({ viewingAs: "admin", actingAsHigherRole: false });
    expect(asAdmin.permissions.canViewBilling).toBe(false);
  });

  it("a viewing-as value above the caller's rank falls back to the default", async () => {
    const body = await getAccount(world.members.r1Owner.token, "&viewingAs=superAdmin");
    expect(body.viewingAs).toBe("reseller");
  });

  it("partner-controlled settings on the organisation turn flags off for its owner", async () => {
    const { db } = app.context.database;
    const { eq } = await import("drizzle-orm");
    await db
      .update(accounts)
      .set({ settings: { showBilling: false, allowTasks: false } })
      .where(eq(accounts.id, world.accounts.O1.id));
    const body = await getAccount(world.members.o1Owner.token);
    expect(body.permissions).toMatchObject({
      canViewBilling: false,
      canManageBilling: false,
      canViewTasks: false,
      canAddAgents: true,
    });
  });
});

describe("demo data", () => {
  it("seeds the hierarchy once into an empty database and never into one with accounts", async () => {
    const fresh = await buildTestApp();
    const { db } = fresh.context.database;
    expect(await seedDemoData(db)).toBe(true);
    const rows = await db
      .select({ type: accounts.accountType, n: count() })
      .from(accounts)
      .groupBy(accounts.accountType);
    expect(Object.fromEntries(rows.map((r) => [r.type, r.n]))).toEqual({
      partner: 2,
      reseller: 1,
      organization: 1,
      agent: 2,
    });
    expect(await seedDemoData(db)).toBe(false);
    await fresh.close();
  });
});
