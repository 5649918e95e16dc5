import { count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy, fingerprints } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts } from "../../db/schema/index.ts";
import { createAccountsRepository } from "../accounts/accounts.repository.ts";

let app: FastifyInstance;
let call: ReturnType<typeof apiCaller>;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  call = apiCaller(app);
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

const db = () => app.context.database.db;
const accountCount = async () => (await db().select({ n: count() }).from(accounts))[0]?.n ?? 0;

async function latestEmailTo(to: string): Promise<string> {
  const outbox = await call("GET", "/api/dev/outbox", { query: { limit: 20 } });
  const message = outbox.body.messages.find((m: { to: string }) => m.to === to);
  if (!message) throw new Error(`no e-mail to ${to}`);
  return message.body as string;
}

function expectNoLeak(body: unknown, ...victims: Parameters<typeof fingerprints>[0][]) {
  const text = JSON.stringify(body);
  for (const victim of victims) for (const mark of fingerprints(victim)) expect(text).not.toContain(mark);
}

describe("POST /api/v2/createOrganization", () => {
  it("a reseller creates an organisation under itself; the owner e-mail gets an invitation that signs in", async () => {
    const email = `owner-${world.tag}@clinic.example`;
    const res = await call("POST", "/api/v2/createOrganization", {
      token: world.members.r1Owner.token,
      body: { name: "Acme Clinic", email, externalAccountId: "crm-9" },
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({
      accountType: "organization",
      type: "organization",
      displayName: "Acme Clinic",
      parentId: world.accounts.R1.id,
      resellerId: world.accounts.R1.id,
      partnerId: world.accounts.P1.id,
      email,
      externalAccountId: "crm-9",
      details: { orgName: "Acme Clinic" },
    });
    expect(res.body.account.organizationId).toBe(res.body.account.id);

    const mail = await latestEmailTo(email);
    expect(mail).toContain("as an owner");
    const link = /(http\S+oneTimeToken=\S+)/.exec(mail)?.[1] ?? "";
    expect(link.startsWith("http://127.0.0.1:3000/app?oneTimeToken=")).toBe(true);
    const oneTimeToken = new URL(link).searchParams.get("oneTimeToken") ?? "";
    const session = await call("GET", "/api/v1/oneTimeAuth", { query: { oneTimeToken } });
    expect(session.status).toBe(200);
    const me = await call("GET", "/api/v1/account", { token: session.body.token });
    expect(me.body).toMatchObject({ account: { id: res.body.account.id }, role: "owner" });
    // The link works once.
    expect((await call("GET", "/api/v1/oneTimeAuth", { query: { oneTimeToken } })).status).toBe(401);
  });

  it("a partner creates one under its reseller (targetResellerId) or directly under itself", async () => {
    const underReseller = await call("POST", "/api/v2/createOrganization", {
      token: world.members.p1Owner.token,
      body: { name: "Via Reseller", targetResellerId: world.accounts.R1.id },
    });
    expect(underReseller.body.account).toMatchObject({ resellerId: world.accounts.R1.id });
    const direct = await call("POST", "/api/v2/createOrganization", {
      token: world.members.p1Owner.token,
      body: { name: "Direct" },
    });
    expect(direct.body.account).toMatchObject({
      parentId: world.accounts.P1.id,
      partnerId: world.accounts.P1.id,
      resellerId: null,
    });
  });

  it("a super admin creates one under any reseller it targets", async () => {
    const res = await call("POST", "/api/v2/createOrganization", {
      token: world.members.superAdmin.token,
      targetAccountId: world.accounts.R2.id,
      body: { name: "Platform Made" },
    });
    expect(res.body.account).toMatchObject({ resellerId: world.accounts.R2.id });
  });

  it("refuses organisation users, foreign resellers, wrong types and foreign redirect links", async () => {
    const before = await accountCount();
    const asOrg = await call("POST", "/api/v2/createOrganization", {
      token: world.members.o1Owner.token,
      body: { name: "Nested" },
    });
    expect(asOrg).toMatchObject({
      status: 400,
      body: { message: "An organization is created under a partner or reseller account." },
    });
    const foreign = await call("POST", "/api/v2/createOrganization", {
      token: world.members.p1Owner.token,
      body: { name: "Sneaky", targetResellerId: world.accounts.R2.id },
    });
    expect(foreign).toMatchObject({ status: 404, body: { message: "Account not found" } });
    expectNoLeak(foreign.body, world.accounts.R2);
    const wrongType = await call("POST", "/api/v2/createOrganization", {
      token: world.members.p1Owner.token,
      body: { name: "Odd", targetResellerId: world.accounts.O1.id },
    });
    expect(wrongType).toMatchObject({ status: 400, body: { message: "Account type does not match" } });
    const evil = await call("POST", "/api/v2/createOrganization", {
      token: world.members.r1Owner.token,
      body: { name: "Phish", email: "victim@example.com", redirectUrl: "https://evil.example/steal" },
    });
    expect(evil.status).toBe(400);
    expect(evil.body.message).toMatch(/^redirectUrl: /);
    const noName = await call("POST", "/api/v2/createOrganization", {
      token: world.members.r1Owner.token,
      body: { name: " " },
    });
    expect(noName).toMatchObject({ status: 400, body: { message: "name: Enter a name." } });
    expect(await accountCount()).toBe(before);
  });
});

describe("POST /api/v2/createReseller", () => {
  it("a partner creates a reseller; resellers and organisations cannot; a foreign partner id is not found", async () => {
    const res = await call("POST", "/api/v2/createReseller", {
      token: world.members.p1Owner.token,
      body: { name: "South Resellers" },
    });
    expect(res.body.account).toMatchObject({
      type: "reseller",
      displayName: "South Resellers",
      partnerId: world.accounts.P1.id,
      details: { resellerName: "South Resellers" },
    });
    for (const token of [world.members.r1Owner.token, world.members.o1Owner.token]) {
      const refused = await call("POST", "/api/v2/createReseller", { token, body: { name: "x" } });
      expect(refused).toMatchObject({
        status: 400,
        body: { message: "A reseller is created under a partner account." },
      });
    }
    const foreign = await call("POST", "/api/v2/createReseller", {
      token: world.members.p1Owner.token,
      body: { name: "x", targetPartnerId: world.accounts.P2.id },
    });
    expect(foreign.status).toBe(404);
    const superAdmin = await call("POST", "/api/v2/createReseller", {
      token: world.members.superAdmin.token,
      body: { name: "Platform Reseller", targetPartnerId: world.accounts.P2.id },
      targetAccountId: world.accounts.P2.id,
    });
    expect(superAdmin.body.account.partnerId).toBe(world.accounts.P2.id);
  });
});

describe("POST /api/v2/createAccount", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });

  it("owner and admin add agent accounts to their organisation", async () => {
    const res = await call("POST", "/api/v2/createAccount", {
      token: w.members.o1Owner.token,
      body: { name: "Night Line", accountName: "Night", username: `night-${w.tag}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({
      type: "agent",
      username: `night-${w.tag}`,
      organizationId: w.accounts.O1.id,
      resellerId: w.accounts.R1.id,
      partnerId: w.accounts.P1.id,
      agentName: "Night Line",
      accountName: "Night",
      displayName: "Night Line",
    });
    const byAdmin = await call("POST", "/api/v2/createAccount", {
      token: w.members.o1Admin.token,
      body: { name: "Weekend Line" },
    });
    expect(byAdmin.body.account.username).toMatch(/^weekend-line/);
  });

  it("a taken username answers 409; a target that is not an organisation answers the type message", async () => {
    const taken = await call("POST", "/api/v2/createAccount", {
      token: w.members.o1Owner.token,
      body: { name: "Copy", username: `NIGHT-${w.tag}` },
    });
    expect(taken).toMatchObject({
      status: 409,
      body: { message: "This username is taken. Choose another." },
    });
    const onReseller = await call("POST", "/api/v2/createAccount", {
      token: w.members.r1Owner.token,
      body: { name: "Misplaced" },
    });
    expect(onReseller).toMatchObject({ status: 400, body: { message: "Account type does not match" } });
  });

  it("needs canAddAgents: off when the partner says allowAddAgents false, except for those above", async () => {
    await db()
      .update(accounts)
      .set({ settings: { allowAddAgents: false } })
      .where(eq(accounts.id, w.accounts.O1.id));
    const owner = await call("POST", "/api/v2/createAccount", {
      token: w.members.o1Owner.token,
      body: { name: "Refused" },
    });
    expect(owner).toMatchObject({ status: 403, body: { message: "You do not have permission to do this." } });
    const reseller = await call("POST", "/api/v2/createAccount", {
      token: w.members.r1Owner.token,
      targetAccountId: w.accounts.O1.id,
      body: { name: "Reseller Made" },
    });
    expect(reseller.status).toBe(200);
    await db().update(accounts).set({ settings: {} }).where(eq(accounts.id, w.accounts.O1.id));
  });
});

describe("lists", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
    const repo = createAccountsRepository(db());
    await db()
      .update(accounts)
      .set({ details: { orgName: "Bluebird Dental", displayName: "ignored for list items" } })
      .where(eq(accounts.id, w.accounts.O1.id));
    await db()
      .update(accounts)
      .set({ details: { resellerName: "Northwind" } })
      .where(eq(accounts.id, w.accounts.R1.id));
    const O1 = (await db().select().from(accounts).where(eq(accounts.id, w.accounts.O1.id)))[0];
    if (!O1) throw new Error("O1");
    for (let i = 1; i <= 23; i++) {
      await repo.insertAccount(O1, {
        accountType: "agent",
        usernameFrom: `agent-${i}-${w.tag}`,
        details: { agentName: `Agent ${i}` },
      });
    }
  });

  it("listAccounts pages the organisation's agents: page 0 by default, 20 a page, totalAccounts", async () => {
    const first = await call("GET", "/api/v2/listAccounts", { token: w.members.o1Owner.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, totalAccounts: 24, page: 0, pageSize: 20 });
    expect(first.body.accounts).toHaveLength(20);
    expect(first.body.accounts[0]).toMatchObject({
      type: "agent",
      agentName: "Agent 23",
      displayName: "Agent 23",
      subscription: null,
    });
    expect(typeof first.body.accounts[0].timestamp).toBe("number");
    const second = await call("GET", "/api/v2/listAccounts", {
      token: w.members.o1Owner.token,
      query: { page: 1 },
    });
    expect(second.body.accounts).toHaveLength(4);
    expect(second.body.accounts.at(-1).id).toBe(w.accounts.A1.id);
    const all = await call("GET", "/api/v2/listAccounts", {
      token: w.members.o1Owner.token,
      query: { pagination: false },
    });
    expect(all.body.accounts).toHaveLength(24);
    const small = await call("GET", "/api/v2/listAccounts", {
      token: w.members.o1Owner.token,
      query: { pageSize: 5, page: 4 },
    });
    expect(small.body.accounts).toHaveLength(4);
    const bad = await call("GET", "/api/v2/listAccounts", {
      token: w.members.o1Owner.token,
      query: { pageSize: 1000 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^pageSize: /);
  });

  it("active (default true) leaves disabled accounts out; active=false includes them", async () => {
    await db().update(accounts).set({ disabledAt: new Date() }).where(eq(accounts.id, w.accounts.A1.id));
    const active = await call("GET", "/api/v2/listAccounts", {
      token: w.members.o1Owner.token,
      query: { pagination: false },
    });
    expect(active.body.totalAccounts).toBe(23);
    const every = await call("GET", "/api/v2/listAccounts", {
      token: w.members.o1Owner.token,
      query: { pagination: false, active: false },
    });
    expect(every.body.totalAccounts).toBe(24);
    expect(every.body.accounts.find((a: { id: number }) => a.id === w.accounts.A1.id).disabled).toBe(true);
    await db().update(accounts).set({ disabledAt: null }).where(eq(accounts.id, w.accounts.A1.id));
  });

  it("a partner sees every agent account below it; another tree's are never listed", async () => {
    const res = await call("GET", "/api/v2/listAccounts", {
      token: w.members.p1Owner.token,
      query: { pagination: false },
    });
    expect(res.body.totalAccounts).toBe(24);
    expectNoLeak(res.body, w.accounts.A2, w.accounts.O2);
  });

  it("listOrganizations: organisation items take displayName from orgName and carry type and resellerId", async () => {
    for (const token of [w.members.p1Owner.token, w.members.r1Owner.token]) {
      const res = await call("GET", "/api/v2/listOrganizations", { token });
      expect(res.body.totalAccounts).toBe(1);
      expect(res.body.accounts[0]).toMatchObject({
        id: w.accounts.O1.id,
        type: "organization",
        displayName: "Bluebird Dental",
        resellerId: w.accounts.R1.id,
      });
      expectNoLeak(res.body, w.accounts.O2, w.accounts.U);
    }
    const nothingBelow = await call("GET", "/api/v2/listOrganizations", { token: w.members.o1Owner.token });
    expect(nothingBelow.body).toMatchObject({ accounts: [], totalAccounts: 0 });
  });

  it("listResellers: reseller items take displayName from resellerName and carry type and partnerId", async () => {
    const res = await call("GET", "/api/v2/listResellers", { token: w.members.p1Owner.token });
    expect(res.body.accounts).toEqual([
      expect.objectContaining({
        id: w.accounts.R1.id,
        type: "reseller",
        displayName: "Northwind",
        partnerId: w.accounts.P1.id,
      }),
    ]);
    const super1 = await call("GET", "/api/v2/listResellers", {
      token: w.members.superAdmin.token,
      targetAccountId: w.accounts.P2.id,
    });
    expect(super1.body.accounts.map((a: { id: number }) => a.id)).toEqual([w.accounts.R2.id]);
  });

  it("listPartners is for super admins only", async () => {
    const res = await call("GET", "/api/v2/listPartners", {
      adminToken: w.members.superAdmin.token,
      query: { pagination: false },
    });
    const ids = res.body.accounts.map((a: { id: number }) => a.id);
    expect(ids).toEqual(expect.arrayContaining([w.accounts.P1.id, w.accounts.P2.id]));
    expect(res.body.accounts.every((a: { type: string }) => a.type === "partner")).toBe(true);
    const partner = await call("GET", "/api/v2/listPartners", { adminToken: w.members.p1Owner.token });
    expect(partner.status).toBe(403);
  });
});

describe("DELETE /api/v2/deleteOrganization and /api/v2/deleteAccount", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const deleteOrg = (token: string, targetOrganizationId: number) =>
    call("DELETE", "/api/v2/deleteOrganization", { token, body: { targetOrganizationId } });

  it("an admin may not delete the organisation (canDeleteOrg); a foreign id is not found", async () => {
    expect((await deleteOrg(w.members.o1Admin.token, w.accounts.O1.id)).status).toBe(403);
    const foreign = await deleteOrg(w.members.r1Owner.token, w.accounts.O2.id);
    expect(foreign).toMatchObject({ status: 404, body: { message: "Account not found" } });
    const notOrg = await deleteOrg(w.members.r1Owner.token, w.accounts.A1.id);
    expect(notOrg).toMatchObject({ status: 400, body: { message: "Account type does not match" } });
  });

  it("canDeleteOrg follows allowSignup of the organisation the call names, not only the target", async () => {
    await db()
      .update(accounts)
      .set({ settings: { allowSignup: false } })
      .where(eq(accounts.id, w.accounts.O1.id));
    expect((await deleteOrg(w.members.o1Owner.token, w.accounts.O1.id)).status).toBe(403);
    // A reseller viewing as owner holds the owner's flags for that organisation: refused too.
    const asOwner = await call("DELETE", "/api/v2/deleteOrganization", {
      token: w.members.r1Owner.token,
      query: { viewingAs: "owner" },
      body: { targetOrganizationId: w.accounts.O1.id },
    });
    expect(asOwner.status).toBe(403);
    await db().update(accounts).set({ settings: {} }).where(eq(accounts.id, w.accounts.O1.id));
  });

  it("deleteAccount removes an agent account of the organisation; others are not found", async () => {
    const created = await call("POST", "/api/v2/createAccount", {
      token: w.members.o1Owner.token,
      body: { name: "Temp Line" },
    });
    const id = created.body.account.id as number;
    const foreign = await call("DELETE", "/api/v2/deleteAccount", {
      token: w.members.o1Owner.token,
      body: { targetAccountId: w.accounts.A2.id },
    });
    expect(foreign).toMatchObject({ status: 404, body: { message: "Account not found" } });
    expectNoLeak(foreign.body, w.accounts.A2);
    const itself = await call("DELETE", "/api/v2/deleteAccount", {
      token: w.members.o1Owner.token,
      body: { targetAccountId: w.accounts.O1.id },
    });
    expect(itself.status).toBe(404);
    const res = await call("DELETE", "/api/v2/deleteAccount", {
      token: w.members.o1Owner.token,
      body: { targetAccountId: id },
    });
    expect(res.body).toEqual({ success: true, message: "Account deleted." });
    const byReseller = await call("DELETE", "/api/v2/deleteAccount", {
      token: w.members.r1Owner.token,
      query: { targetOrganizationId: w.accounts.O1.id },
      body: { targetAccountId: w.accounts.A1.id },
    });
    expect(byReseller.status).toBe(200);
    const list = await call("GET", "/api/v2/listAccounts", { token: w.members.o1Owner.token });
    expect(list.body.totalAccounts).toBe(0);
    const again = await call("DELETE", "/api/v2/deleteAccount", {
      token: w.members.o1Owner.token,
      body: { targetAccountId: id },
    });
    expect(again.status).toBe(404);
  });

  it("the reseller deletes the organisation: gone from lists, its users' tokens stop working", async () => {
    await call("POST", "/api/v2/createAccount", { token: w.members.o1Owner.token, body: { name: "Left" } });
    const res = await deleteOrg(w.members.r1Owner.token, w.accounts.O1.id);
    expect(res.body).toEqual({ success: true, message: "Organization deleted." });
    const list = await call("GET", "/api/v2/listOrganizations", { token: w.members.r1Owner.token });
    expect(list.body.totalAccounts).toBe(0);
    const agents = await call("GET", "/api/v2/listAccounts", { token: w.members.r1Owner.token });
    expect(agents.body.totalAccounts).toBe(0);
    expect((await call("GET", "/api/v1/account", { token: w.members.o1Owner.token })).status).toBe(401);
    expect((await deleteOrg(w.members.r1Owner.token, w.accounts.O1.id)).status).toBe(404);
  });

  it("an owner may delete its own organisation", async () => {
    const res = await deleteOrg(w.members.o2Owner.token, w.accounts.O2.id);
    expect(res.status).toBe(200);
  });
});

describe("GET /api/v2/searchOrganizations", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  let O3: number;
  beforeAll(async () => {
    w = await buildHierarchy(app);
    await db()
      .update(accounts)
      .set({
        settings: { onboarding: { onboardingComplete: true } },
        externalAccountId: "ext-1",
        externalBillingId: "cus_1",
      })
      .where(eq(accounts.id, w.accounts.O1.id));
    const created = await call("POST", "/api/v2/createOrganization", {
      token: w.members.p1Owner.token,
      body: { name: `Second ${w.tag}` },
    });
    O3 = created.body.account.id;
  });
  const search = (query: Record<string, string | number | boolean>) =>
    call("GET", "/api/v2/searchOrganizations", { token: w.members.p1Owner.token, query });
  const ids = (res: { body: { accounts: { id: number }[] } }) => res.body.accounts.map((a) => a.id).sort();

  it("applies onboardingComplete, externalAccountId, billingId and phrase", async () => {
    expect(ids(await search({ onboardingComplete: true }))).toEqual([w.accounts.O1.id]);
    expect(ids(await search({ onboardingComplete: false }))).toEqual([O3]);
    expect(ids(await search({ externalAccountId: "ext-1" }))).toEqual([w.accounts.O1.id]);
    expect(ids(await search({ billingId: "cus_1" }))).toEqual([w.accounts.O1.id]);
    expect(ids(await search({ billingId: "cus_2" }))).toEqual([]);
    expect(ids(await search({ phrase: `second ${w.tag}` }))).toEqual([O3]);
    expect(ids(await search({}))).toEqual([w.accounts.O1.id, O3].sort());
  });

  it("applies created start and end (a bare end day counts whole)", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(ids(await search({ createdStart: today, createdEnd: today }))).toHaveLength(2);
    expect(ids(await search({ createdStart: Date.now() + 60_000 }))).toEqual([]);
    expect(ids(await search({ createdEnd: "2020-01-01" }))).toEqual([]);
    const bad = await search({ createdStart: "last tuesday" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("createdStart: Enter a date (ISO 8601 or ms since 1970).");
  });

  it("accepts the filters that have no data yet and names them in ignoredFilters", async () => {
    const res = await search({ subscribed: true, allTimeVoiceMinutesMin: 10, productPlanId: "pro" });
    expect(res.status).toBe(200);
    expect(res.body.ignoredFilters.sort()).toEqual(["allTimeVoiceMinutesMin", "productPlanId", "subscribed"]);
    expect(res.body.totalAccounts).toBe(2);
  });

  it("only searches below the target", async () => {
    const res = await call("GET", "/api/v2/searchOrganizations", { token: w.members.r1Owner.token });
    expect(ids(res)).toEqual([w.accounts.O1.id]);
    expectNoLeak(res.body, w.accounts.O2);
  });
});

describe("POST /api/v2/searchAccount and /searchAccount/enhanced", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
    await db().update(accounts).set({ phoneNumber: "+15551234567" }).where(eq(accounts.id, w.accounts.A1.id));
  });
  const search = (token: string, phrase: string, enhanced = false) =>
    call("POST", `/api/v2/searchAccount${enhanced ? "/enhanced" : ""}`, { token, body: { phrase } });
  const ids = (res: { body: { accounts: { id: number }[] } }) => res.body.accounts.map((a) => a.id).sort();

  it("finds by username, display name and e-mail within what the caller can reach", async () => {
    expect(ids(await search(w.members.o1Owner.token, `a1-${w.tag}`))).toEqual([w.accounts.A1.id]);
    expect(ids(await search(w.members.o1Owner.token, `A1 ${w.tag} display`))).toEqual([w.accounts.A1.id]);
    expect(ids(await search(w.members.r1Owner.token, `o1-${w.tag}@tenant`))).toEqual([w.accounts.O1.id]);
    // The caller's own account is reachable too.
    expect(ids(await search(w.members.r1Owner.token, `r1-${w.tag}`))).toEqual([w.accounts.R1.id]);
    const foreign = await search(w.members.r1Owner.token, w.tag);
    expect(foreign.body.totalAccounts).toBe(3);
    expectNoLeak(foreign.body, w.accounts.O2, w.accounts.P1, w.accounts.U);
  });

  it("a super admin finds any account", async () => {
    expect(ids(await search(w.members.superAdmin.token, `o2-${w.tag}`))).toEqual([w.accounts.O2.id]);
  });

  it("enhanced also finds by phone number, id and the account's users; basic does not", async () => {
    const owner = w.members.o1Owner.token;
    expect(ids(await search(owner, "(555) 123-4567", true))).toEqual([w.accounts.A1.id]);
    expect(ids(await search(w.members.r1Owner.token, w.members.o1Admin.email, true))).toEqual([
      w.accounts.O1.id,
    ]);
    expect(ids(await search(w.members.r1Owner.token, w.members.o1Admin.email))).toEqual([]);
    expect(ids(await search(owner, String(w.accounts.A1.id), true))).toContain(w.accounts.A1.id);
  });

  it("takes % and _ literally and wants a phrase", async () => {
    expect((await search(w.members.superAdmin.token, "%")).body.totalAccounts).toBe(0);
    expect((await search(w.members.superAdmin.token, "_")).body.totalAccounts).toBe(0);
    const empty = await search(w.members.o1Owner.token, " ");
    expect(empty).toMatchObject({ status: 400, body: { message: "phrase: Enter something to search for." } });
  });
});
