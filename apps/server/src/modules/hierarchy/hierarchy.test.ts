import * as api from "@switchboard/api";
import { count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, fingerprints } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts } from "../../db/schema/index.ts";
import { createAccountsRepository } from "../accounts/accounts.repository.ts";

let app: FastifyInstance;
let client: TestClient;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  client = testClient(app);
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

const db = () => app.context.database.db;
const accountCount = async () => (await db().select({ n: count() }).from(accounts))[0]?.n ?? 0;

async function latestEmailTo(to: string): Promise<string> {
  const outbox = await client().call(api.devOutbox, { query: { limit: 20 } });
  const message = outbox.messages.find((m) => m.to === to);
  if (!message) throw new Error(`no e-mail to ${to}`);
  return message.body;
}

function expectNoLeak(body: unknown, ...victims: Parameters<typeof fingerprints>[0][]) {
  const text = JSON.stringify(body);
  for (const victim of victims) for (const mark of fingerprints(victim)) expect(text).not.toContain(mark);
}

describe("POST /api/v2/createOrganization", () => {
  it("a reseller creates an organisation under itself; the owner e-mail gets an invitation that signs in", async () => {
    const email = `owner-${world.tag}@clinic.example`;
    const res = await client(world.members.r1Owner.token).call(api.createOrganization, {
      body: { name: "Acme Clinic", email, externalAccountId: "crm-9" },
    });
    expect(res.account).toMatchObject({
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
    expect(res.account.organizationId).toBe(res.account.id);

    const mail = await latestEmailTo(email);
    expect(mail).toContain("as an owner");
    const link = /(http\S+oneTimeToken=\S+)/.exec(mail)?.[1] ?? "";
    expect(link.startsWith("http://127.0.0.1:3000/app?oneTimeToken=")).toBe(true);
    const oneTimeToken = new URL(link).searchParams.get("oneTimeToken") ?? "";
    const session = await client().call(api.oneTimeAuth, { query: { oneTimeToken } });
    const me = await client(session.token).call(api.getAccount);
    expect(me).toMatchObject({ account: { id: res.account.id }, role: "owner" });
    // The link works once.
    await expectRefusal(client().call(api.oneTimeAuth, { query: { oneTimeToken } }), 401);
  });

  it("a partner creates one under its reseller (targetResellerId) or directly under itself", async () => {
    const underReseller = await client(world.members.p1Owner.token).call(api.createOrganization, {
      body: { name: "Via Reseller", targetResellerId: world.accounts.R1.id },
    });
    expect(underReseller.account).toMatchObject({ resellerId: world.accounts.R1.id });
    const direct = await client(world.members.p1Owner.token).call(api.createOrganization, {
      body: { name: "Direct" },
    });
    expect(direct.account).toMatchObject({
      parentId: world.accounts.P1.id,
      partnerId: world.accounts.P1.id,
      resellerId: null,
    });
  });

  it("a super admin creates one under any reseller it targets", async () => {
    const res = await client(world.members.superAdmin.token, world.accounts.R2.id).call(
      api.createOrganization,
      {
        body: { name: "Platform Made" },
      },
    );
    expect(res.account).toMatchObject({ resellerId: world.accounts.R2.id });
  });

  it("refuses organisation users, foreign resellers, wrong types and foreign redirect links", async () => {
    const before = await accountCount();
    await expectRefusal(
      client(world.members.o1Owner.token).call(api.createOrganization, { body: { name: "Nested" } }),
      400,
      "An organization is created under a partner or reseller account.",
    );
    const foreign = await expectRefusal(
      client(world.members.p1Owner.token).call(api.createOrganization, {
        body: { name: "Sneaky", targetResellerId: world.accounts.R2.id },
      }),
      404,
      "Account not found",
    );
    expectNoLeak(foreign.body, world.accounts.R2);
    await expectRefusal(
      client(world.members.p1Owner.token).call(api.createOrganization, {
        body: { name: "Odd", targetResellerId: world.accounts.O1.id },
      }),
      400,
      "Account type does not match",
    );
    await expectRefusal(
      client(world.members.r1Owner.token).call(api.createOrganization, {
        body: { name: "Phish", email: "victim@example.com", redirectUrl: "https://evil.example/steal" },
      }),
      400,
      /^redirectUrl: /,
    );
    await expectRefusal(
      client(world.members.r1Owner.token).call(api.createOrganization, { body: { name: " " } }),
      400,
      "name: Enter a name.",
    );
    expect(await accountCount()).toBe(before);
  });
});

describe("POST /api/v2/createReseller", () => {
  it("a partner creates a reseller; resellers and organisations cannot; a foreign partner id is not found", async () => {
    const res = await client(world.members.p1Owner.token).call(api.createReseller, {
      body: { name: "South Resellers" },
    });
    expect(res.account).toMatchObject({
      type: "reseller",
      displayName: "South Resellers",
      partnerId: world.accounts.P1.id,
      details: { resellerName: "South Resellers" },
    });
    for (const token of [world.members.r1Owner.token, world.members.o1Owner.token]) {
      await expectRefusal(
        client(token).call(api.createReseller, { body: { name: "x" } }),
        400,
        "A reseller is created under a partner account.",
      );
    }
    await expectRefusal(
      client(world.members.p1Owner.token).call(api.createReseller, {
        body: { name: "x", targetPartnerId: world.accounts.P2.id },
      }),
      404,
    );
    const superAdmin = await client(world.members.superAdmin.token, world.accounts.P2.id).call(
      api.createReseller,
      { body: { name: "Platform Reseller", targetPartnerId: world.accounts.P2.id } },
    );
    expect(superAdmin.account.partnerId).toBe(world.accounts.P2.id);
  });
});

describe("POST /api/v2/createAccount", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });

  it("owner and admin add agent accounts to their organisation", async () => {
    const res = await client(w.members.o1Owner.token).call(api.createAgentAccount, {
      body: { name: "Night Line", accountName: "Night", username: `night-${w.tag}` },
    });
    expect(res.account).toMatchObject({
      type: "agent",
      username: `night-${w.tag}`,
      organizationId: w.accounts.O1.id,
      resellerId: w.accounts.R1.id,
      partnerId: w.accounts.P1.id,
      agentName: "Night Line",
      accountName: "Night",
      displayName: "Night Line",
    });
    const byAdmin = await client(w.members.o1Admin.token).call(api.createAgentAccount, {
      body: { name: "Weekend Line" },
    });
    expect(byAdmin.account.username).toMatch(/^weekend-line/);
  });

  it("a taken username answers 409; a target that is not an organisation answers the type message", async () => {
    await expectRefusal(
      client(w.members.o1Owner.token).call(api.createAgentAccount, {
        body: { name: "Copy", username: `NIGHT-${w.tag}` },
      }),
      409,
      "This username is taken. Choose another.",
    );
    await expectRefusal(
      client(w.members.r1Owner.token).call(api.createAgentAccount, { body: { name: "Misplaced" } }),
      400,
      "Account type does not match",
    );
  });

  it("needs canAddAgents: off when the partner says allowAddAgents false, except for those above", async () => {
    await db()
      .update(accounts)
      .set({ settings: { allowAddAgents: false } })
      .where(eq(accounts.id, w.accounts.O1.id));
    await expectRefusal(
      client(w.members.o1Owner.token).call(api.createAgentAccount, { body: { name: "Refused" } }),
      403,
      "You do not have permission to do this.",
    );
    await client(w.members.r1Owner.token, w.accounts.O1.id).call(api.createAgentAccount, {
      body: { name: "Reseller Made" },
    });
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
  const listAccounts = (token: string, query?: api.RouteQuery<typeof api.listAgentAccounts>) =>
    client(token).call(api.listAgentAccounts, { query });

  it("listAccounts pages the organisation's agents: page 0 by default, 20 a page, totalAccounts", async () => {
    const first = await listAccounts(w.members.o1Owner.token);
    expect(first).toMatchObject({ success: true, totalAccounts: 24, page: 0, pageSize: 20 });
    expect(first.accounts).toHaveLength(20);
    expect(first.accounts[0]).toMatchObject({
      type: "agent",
      agentName: "Agent 23",
      displayName: "Agent 23",
      subscription: null,
    });
    expect(typeof first.accounts[0]?.timestamp).toBe("number");
    const second = await listAccounts(w.members.o1Owner.token, { page: 1 });
    expect(second.accounts).toHaveLength(4);
    expect(second.accounts.at(-1)?.id).toBe(w.accounts.A1.id);
    const all = await listAccounts(w.members.o1Owner.token, { pagination: false });
    expect(all.accounts).toHaveLength(24);
    const small = await listAccounts(w.members.o1Owner.token, { pageSize: 5, page: 4 });
    expect(small.accounts).toHaveLength(4);
    await expectRefusal(listAccounts(w.members.o1Owner.token, { pageSize: 1000 }), 400, /^pageSize: /);
  });

  it("active (default true) leaves disabled accounts out; active=false includes them", async () => {
    await db().update(accounts).set({ disabledAt: new Date() }).where(eq(accounts.id, w.accounts.A1.id));
    const active = await listAccounts(w.members.o1Owner.token, { pagination: false });
    expect(active.totalAccounts).toBe(23);
    const every = await listAccounts(w.members.o1Owner.token, { pagination: false, active: false });
    expect(every.totalAccounts).toBe(24);
    expect(every.accounts.find((a) => a.id === w.accounts.A1.id)?.disabled).toBe(true);
    await db().update(accounts).set({ disabledAt: null }).where(eq(accounts.id, w.accounts.A1.id));
  });

  it("a partner sees every agent account below it; another tree's are never listed", async () => {
    const res = await listAccounts(w.members.p1Owner.token, { pagination: false });
    expect(res.totalAccounts).toBe(24);
    expectNoLeak(res, w.accounts.A2, w.accounts.O2);
  });

  it("listOrganizations: organisation items take displayName from orgName and carry type and resellerId", async () => {
    for (const token of [w.members.p1Owner.token, w.members.r1Owner.token]) {
      const res = await client(token).call(api.listOrganizations);
      expect(res.totalAccounts).toBe(1);
      expect(res.accounts[0]).toMatchObject({
        id: w.accounts.O1.id,
        type: "organization",
        displayName: "Bluebird Dental",
        resellerId: w.accounts.R1.id,
      });
      expectNoLeak(res, w.accounts.O2, w.accounts.U);
    }
    const nothingBelow = await client(w.members.o1Owner.token).call(api.listOrganizations);
    expect(nothingBelow).toMatchObject({ accounts: [], totalAccounts: 0 });
  });

  it("listResellers: reseller items take displayName from resellerName and carry type and partnerId", async () => {
    const res = await client(w.members.p1Owner.token).call(api.listResellers);
    expect(res.accounts).toEqual([
      expect.objectContaining({
        id: w.accounts.R1.id,
        type: "reseller",
        displayName: "Northwind",
        partnerId: w.accounts.P1.id,
      }),
    ]);
    const super1 = await client(w.members.superAdmin.token, w.accounts.P2.id).call(api.listResellers);
    expect(super1.accounts.map((a) => a.id)).toEqual([w.accounts.R2.id]);
  });

  it("listPartners is for super admins only", async () => {
    // The client sends the caller's token as `token`, which an adminToken route also reads.
    const res = await client(w.members.superAdmin.token).call(api.listPartners, {
      query: { pagination: false },
    });
    const ids = res.accounts.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([w.accounts.P1.id, w.accounts.P2.id]));
    expect(res.accounts.every((a) => a.type === "partner")).toBe(true);
    await expectRefusal(client(w.members.p1Owner.token).call(api.listPartners), 403);
  });
});

describe("DELETE /api/v2/deleteOrganization and /api/v2/deleteAccount", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const deleteOrg = (token: string, targetOrganizationId: number) =>
    client(token).call(api.deleteOrganization, { body: { targetOrganizationId } });
  const deleteAccount = (token: string, body: api.RouteBody<typeof api.deleteAgentAccount>) =>
    client(token).call(api.deleteAgentAccount, { body });

  it("an admin may not delete the organisation (canDeleteOrg); a foreign id is not found", async () => {
    await expectRefusal(deleteOrg(w.members.o1Admin.token, w.accounts.O1.id), 403);
    await expectRefusal(deleteOrg(w.members.r1Owner.token, w.accounts.O2.id), 404, "Account not found");
    await expectRefusal(
      deleteOrg(w.members.r1Owner.token, w.accounts.A1.id),
      400,
      "Account type does not match",
    );
  });

  it("canDeleteOrg follows allowSignup of the organisation the call names, not only the target", async () => {
    await db()
      .update(accounts)
      .set({ settings: { allowSignup: false } })
      .where(eq(accounts.id, w.accounts.O1.id));
    await expectRefusal(deleteOrg(w.members.o1Owner.token, w.accounts.O1.id), 403);
    // A reseller viewing as owner holds the owner's flags for that organisation: refused too.
    // viewingAs is read by the access hook from any call's query, outside each route's own schema.
    await expectRefusal(
      client(w.members.r1Owner.token).call(api.deleteOrganization, {
        query: { viewingAs: "owner" } as never,
        body: { targetOrganizationId: w.accounts.O1.id },
      }),
      403,
    );
    await db().update(accounts).set({ settings: {} }).where(eq(accounts.id, w.accounts.O1.id));
  });

  it("deleteAccount removes an agent account of the organisation; others are not found", async () => {
    const created = await client(w.members.o1Owner.token).call(api.createAgentAccount, {
      body: { name: "Temp Line" },
    });
    const id = created.account.id;
    const foreign = await expectRefusal(
      deleteAccount(w.members.o1Owner.token, { targetAccountId: w.accounts.A2.id }),
      404,
      "Account not found",
    );
    expectNoLeak(foreign.body, w.accounts.A2);
    await expectRefusal(deleteAccount(w.members.o1Owner.token, { targetAccountId: w.accounts.O1.id }), 404);
    const res = await deleteAccount(w.members.o1Owner.token, { targetAccountId: id });
    expect(res).toEqual({ success: true, message: "Account deleted." });
    await client(w.members.r1Owner.token).call(api.deleteAgentAccount, {
      query: { targetOrganizationId: w.accounts.O1.id },
      body: { targetAccountId: w.accounts.A1.id },
    });
    const list = await client(w.members.o1Owner.token).call(api.listAgentAccounts);
    expect(list.totalAccounts).toBe(0);
    await expectRefusal(deleteAccount(w.members.o1Owner.token, { targetAccountId: id }), 404);
  });

  it("the reseller deletes the organisation: gone from lists, its users' tokens stop working", async () => {
    await client(w.members.o1Owner.token).call(api.createAgentAccount, { body: { name: "Left" } });
    const res = await deleteOrg(w.members.r1Owner.token, w.accounts.O1.id);
    expect(res).toEqual({ success: true, message: "Organization deleted." });
    const list = await client(w.members.r1Owner.token).call(api.listOrganizations);
    expect(list.totalAccounts).toBe(0);
    const agents = await client(w.members.r1Owner.token).call(api.listAgentAccounts);
    expect(agents.totalAccounts).toBe(0);
    await expectRefusal(client(w.members.o1Owner.token).call(api.getAccount), 401);
    await expectRefusal(deleteOrg(w.members.r1Owner.token, w.accounts.O1.id), 404);
  });

  it("an owner may delete its own organisation", async () => {
    const res = await deleteOrg(w.members.o2Owner.token, w.accounts.O2.id);
    expect(res.success).toBe(true);
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
    const created = await client(w.members.p1Owner.token).call(api.createOrganization, {
      body: { name: `Second ${w.tag}` },
    });
    O3 = created.account.id;
  });
  const search = (query: api.RouteQuery<typeof api.searchOrganizations>) =>
    client(w.members.p1Owner.token).call(api.searchOrganizations, { query });
  const ids = (res: { accounts: { id: number }[] }) => res.accounts.map((a) => a.id).sort();

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
    await expectRefusal(
      search({ createdStart: "last tuesday" }),
      400,
      "createdStart: Enter a date (ISO 8601 or ms since 1970).",
    );
  });

  it("accepts the filters that have no data yet and names them in ignoredFilters", async () => {
    const res = await search({ subscribed: true, allTimeVoiceMinutesMin: 10, productPlanId: "pro" });
    expect(res.ignoredFilters.sort()).toEqual(["allTimeVoiceMinutesMin", "productPlanId", "subscribed"]);
    expect(res.totalAccounts).toBe(2);
  });

  it("only searches below the target", async () => {
    const res = await client(w.members.r1Owner.token).call(api.searchOrganizations);
    expect(ids(res)).toEqual([w.accounts.O1.id]);
    expectNoLeak(res, w.accounts.O2);
  });
});

describe("POST /api/v2/searchAccount and /searchAccount/enhanced", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
    await db().update(accounts).set({ phoneNumber: "+15551234567" }).where(eq(accounts.id, w.accounts.A1.id));
  });
  const search = (token: string, phrase: string, enhanced = false) =>
    client(token).call(enhanced ? api.searchAccountEnhanced : api.searchAccount, { body: { phrase } });
  const ids = (res: { accounts: { id: number }[] }) => res.accounts.map((a) => a.id).sort();

  it("finds by username, display name and e-mail within what the caller can reach", async () => {
    expect(ids(await search(w.members.o1Owner.token, `a1-${w.tag}`))).toEqual([w.accounts.A1.id]);
    expect(ids(await search(w.members.o1Owner.token, `A1 ${w.tag} display`))).toEqual([w.accounts.A1.id]);
    expect(ids(await search(w.members.r1Owner.token, `o1-${w.tag}@tenant`))).toEqual([w.accounts.O1.id]);
    // The caller's own account is reachable too.
    expect(ids(await search(w.members.r1Owner.token, `r1-${w.tag}`))).toEqual([w.accounts.R1.id]);
    const foreign = await search(w.members.r1Owner.token, w.tag);
    expect(foreign.totalAccounts).toBe(3);
    expectNoLeak(foreign, w.accounts.O2, w.accounts.P1, w.accounts.U);
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
    expect((await search(w.members.superAdmin.token, "%")).totalAccounts).toBe(0);
    expect((await search(w.members.superAdmin.token, "_")).totalAccounts).toBe(0);
    await expectRefusal(search(w.members.o1Owner.token, " "), 400, "phrase: Enter something to search for.");
  });
});
