import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, fakePng, multipartFile } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts, domains } from "../../db/schema/index.ts";
import { DEMO_WHITE_LABEL_HOST, seedDemoData } from "../../db/seed.ts";
import { platformPartner } from "./platform-partner.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let call: ReturnType<typeof apiCaller>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "switchboard-accounts-"));
  app = await buildTestApp({ DATA_DIR: dataDir });
  world = await buildHierarchy(app);
  call = apiCaller(app);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
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
    // The super admin's own partner is the platform partner main-host sign-ups join.
    const [switchboard] = await db.select().from(accounts).where(eq(accounts.username, "switchboard"));
    expect((await platformPartner(db)).id).toBe(switchboard?.id);
    const [domain] = await db.select().from(domains);
    expect(domain).toMatchObject({
      host: DEMO_WHITE_LABEL_HOST,
      isDefault: true,
      settings: { supportUrl: "https://support.acmevoice.example" },
    });
    expect(await seedDemoData(db)).toBe(false);
    await fresh.close();
  });
});

describe("POST /api/v1/account and /api/v2/updateAccount", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });

  it("the owner updates the organisation's fields; the name becomes orgName and the display name", async () => {
    const res = await call("POST", "/api/v1/account", {
      token: w.members.o1Owner.token,
      body: {
        email: "Billing@Bluebird.example",
        name: "Bluebird Dental Group",
        accountName: "Bluebird",
        externalAccountId: "crm-17",
        externalBillingId: "cus_123",
        phoneNumber: "(555) 010-2000",
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({
      id: w.accounts.O1.id,
      email: "billing@bluebird.example",
      displayName: "Bluebird Dental Group",
      externalAccountId: "crm-17",
      externalBillingId: "cus_123",
      phoneNumber: "+15550102000",
      details: { orgName: "Bluebird Dental Group", name: "Bluebird Dental Group", accountName: "Bluebird" },
    });
  });

  it("an empty detail removes it, null clears a column, and untouched fields stay", async () => {
    const res = await call("POST", "/api/v1/account", {
      token: w.members.o1Admin.token,
      body: { accountName: "", externalBillingId: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.account.details.accountName).toBeUndefined();
    expect(res.body.account).toMatchObject({ externalBillingId: null, externalAccountId: "crm-17" });
  });

  it("a reseller updates an agent account below it (agentName) through /api/v2/updateAccount", async () => {
    const res = await call("POST", "/api/v2/updateAccount", {
      token: w.members.r1Owner.token,
      targetAccountId: w.accounts.A1.id,
      body: { name: "Front Desk" },
    });
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({
      id: w.accounts.A1.id,
      accountType: "agent",
      details: { agentName: "Front Desk" },
    });
  });

  it("refuses bad fields with the field's message, and accounts outside the caller's tree", async () => {
    const bad = await call("POST", "/api/v1/account", {
      token: w.members.o1Owner.token,
      body: { email: "not-an-address" },
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { success: false, message: "email: Enter a valid e-mail address." },
    });
    const foreign = await call("POST", "/api/v2/updateAccount", {
      token: w.members.o1Owner.token,
      targetAccountId: w.accounts.O2.id,
      body: { name: "Taken over" },
    });
    expect(foreign).toMatchObject({ status: 404, body: { success: false, message: "Account not found" } });
  });
});

describe("POST /api/v2/updateOrganization", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });

  it("answers 'Account type does not match' when the target is not an organisation", async () => {
    const res = await call("POST", "/api/v2/updateOrganization", {
      token: w.members.r1Owner.token,
      targetAccountId: w.accounts.A1.id,
      body: { name: "x" },
    });
    expect(res).toMatchObject({ status: 400, body: { message: "Account type does not match" } });
  });

  it("premium and smsEnabled change only from above: the reseller may, the owner may not", async () => {
    const owner = await call("POST", "/api/v2/updateOrganization", {
      token: w.members.o1Owner.token,
      body: { premium: true },
    });
    expect(owner.status).toBe(403);
    expect(owner.body.message).toContain("premium or smsEnabled");
    // Sending the current value is not a change.
    const same = await call("POST", "/api/v2/updateOrganization", {
      token: w.members.o1Owner.token,
      body: { premium: false, name: "Renamed" },
    });
    expect(same.status).toBe(200);
    const reseller = await call("POST", "/api/v2/updateOrganization", {
      token: w.members.r1Owner.token,
      targetAccountId: w.accounts.O1.id,
      body: { premium: true, smsEnabled: true },
    });
    expect(reseller.status).toBe(200);
    expect(reseller.body.account).toMatchObject({ premium: true, smsEnabled: true, displayName: "Renamed" });
  });
});

describe("POST /api/v1/accountSetting", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const save = (token: string, settings: Record<string, unknown>, query: Record<string, string> = {}) =>
    call("POST", "/api/v1/accountSetting", { token, query, body: { settings } });

  it("merges keys into the settings; null removes one", async () => {
    const token = w.members.o1Owner.token;
    await save(token, { favorites: [3, 1], walkthrough: { version: 1, completed: [] } });
    const res = await save(token, {
      onboarding: { activeStep: 2, onboardingComplete: false },
      walkthrough: null,
    });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    expect(res.body.settings).toEqual({
      favorites: [3, 1],
      onboarding: { activeStep: 2, onboardingComplete: false },
    });
  });

  it("the organisation's own users cannot change partner-controlled flags", async () => {
    for (const member of [w.members.o1Owner, w.members.o1Admin]) {
      const res = await save(member.token, { showBilling: false, favorites: [] });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        success: false,
        message: "Only a super admin, partner or reseller above this account can change showBilling.",
      });
    }
    // Re-sending unchanged (unset) flags with other settings is fine.
    expect((await save(w.members.o1Owner.token, { showBilling: null, favorites: [1] })).status).toBe(200);
  });

  it("a reseller, partner or super admin above the organisation may, and the flags take effect", async () => {
    const O1 = String(w.accounts.O1.id);
    expect(
      (await save(w.members.r1Owner.token, { showBilling: false }, { targetAccountId: O1 })).status,
    ).toBe(200);
    expect((await save(w.members.p1Owner.token, { allowTasks: false }, { targetAccountId: O1 })).status).toBe(
      200,
    );
    expect(
      (await save(w.members.superAdmin.token, { allowEmbeds: false }, { targetAccountId: O1 })).status,
    ).toBe(200);
    const account = await call("GET", "/api/v1/account", { token: w.members.o1Owner.token });
    expect(account.body.permissions).toMatchObject({
      canViewBilling: false,
      canViewTasks: false,
      canViewEmbeds: false,
      canAddAgents: true,
    });
    // Sending the value in force is not a change, so the owner may save the whole object back.
    expect(
      (await save(w.members.o1Owner.token, { showBilling: false, allowTasks: false, favorites: [] })).status,
    ).toBe(200);
  });

  it("a reseller viewing as owner sees the organisation's view and cannot change flags either", async () => {
    const res = await save(
      w.members.r1Owner.token,
      { showBilling: true },
      { targetAccountId: String(w.accounts.O1.id), viewingAs: "owner" },
    );
    expect(res.status).toBe(403);
  });

  it("a partner or reseller sets the flags of its own account (e.g. closing sign-up under it)", async () => {
    for (const member of [w.members.p1Owner, w.members.r1Owner]) {
      const res = await save(member.token, { allowSignup: false });
      expect(res.status).toBe(200);
      expect(res.body.settings.allowSignup).toBe(false);
    }
    const signup = await call("POST", "/api/v1/signup/email", {
      body: { email: `late-${w.tag}@example.com`, accountId: w.accounts.R1.id },
    });
    expect(signup).toMatchObject({ status: 403, body: { message: "Sign-up is closed for this partner." } });
  });

  it("flags are booleans", async () => {
    const res = await save(w.members.r1Owner.token, { showMembers: "yes" });
    expect(res).toMatchObject({ status: 400 });
    expect(res.body.message).toMatch(/^settings\.showMembers: /);
  });
});

describe("POST /api/v1/account/socialLinks", () => {
  it("replaces the links (empty ones dropped) and their position", async () => {
    const res = await call("POST", "/api/v1/account/socialLinks", {
      token: world.members.o1Owner.token,
      body: {
        socialLinks: { instagram: "https://instagram.com/bluebird", x: "@bluebird", tiktok: "" },
        socialLinksPosition: "bottom",
      },
    });
    expect(res.body).toEqual({
      success: true,
      socialLinks: { instagram: "https://instagram.com/bluebird", x: "@bluebird" },
      socialLinksPosition: "bottom",
    });
  });

  it("refuses script links", async () => {
    const res = await call("POST", "/api/v1/account/socialLinks", {
      token: world.members.o1Owner.token,
      body: { socialLinks: { site: "javascript:alert(1)" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("socialLinks.site");
  });
});

describe("POST /api/v1/profile/dp", () => {
  const upload = (token: string, data: Buffer, options: Parameters<typeof multipartFile>[1] = {}) =>
    call("POST", "/api/v1/profile/dp", { token, ...multipartFile(data, options) });

  it("stores a PNG, points details.image at it and serves it read-only; a new image replaces it", async () => {
    const token = world.members.o1Owner.token;
    const first = await upload(token, fakePng(200));
    expect(first.status).toBe(200);
    const url: string = first.body.image;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/files\/avatars\/[0-9a-f]{24}\.png$/);
    expect(first.body.account.details.image).toBe(url);
    const served = await call("GET", new URL(url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.raw.equals(fakePng(200))).toBe(true);
    expect((await call("PUT", new URL(url).pathname)).status).toBe(404);

    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(20)]);
    const second = await upload(token, gif, { filename: "a.gif", contentType: "image/gif" });
    expect(second.body.image).toMatch(/\.gif$/);
    expect((await call("GET", new URL(url).pathname)).status).toBe(404);
  });

  it("recognises the type by content, not by name or header", async () => {
    const res = await upload(world.members.o1Owner.token, Buffer.from("<svg onload=alert(1)>"), {
      filename: "x.png",
    });
    expect(res).toMatchObject({
      status: 415,
      body: { success: false, message: "The image must be a PNG, JPEG, WebP or GIF file." },
    });
  });

  it("refuses images over 2 MB, requests that are not multipart, and uploads without a file", async () => {
    const big = await upload(world.members.o1Owner.token, fakePng(2 * 1024 * 1024 + 1));
    expect(big).toMatchObject({ status: 413, body: { message: "The image is larger than 2 MB." } });
    const json = await call("POST", "/api/v1/profile/dp", { token: world.members.o1Owner.token, body: {} });
    expect(json).toMatchObject({ status: 400, body: { message: "Send the image as multipart/form-data." } });
  });

  it("never serves anything but a stored file", async () => {
    for (const pathname of [
      "/files/avatars/..%2F..%2Fpackage.json",
      "/files/x",
      "/files/avatars/.hidden.png",
    ]) {
      const res = await call("GET", pathname);
      expect(res.status).toBe(404);
    }
  });
});

describe("POST /api/v1/updateUsername and the public profile", () => {
  it("changes the username (lower-cased); a taken one, in any case, answers 409", async () => {
    const res = await call("POST", "/api/v1/updateUsername", {
      token: world.members.o1Owner.token,
      body: { username: `Blue-${world.tag}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.account.username).toBe(`blue-${world.tag}`);
    const taken = await call("POST", "/api/v1/updateUsername", {
      token: world.members.o2Owner.token,
      body: { username: `BLUE-${world.tag}` },
    });
    expect(taken).toMatchObject({
      status: 409,
      body: { success: false, message: "This username is taken. Choose another." },
    });
  });

  it("refuses malformed and reserved usernames", async () => {
    for (const username of ["ab", "has space", "a".repeat(31), "dots.not.allowed"]) {
      const res = await call("POST", "/api/v1/updateUsername", {
        token: world.members.o2Owner.token,
        body: { username },
      });
      expect(res).toMatchObject({
        status: 400,
        body: {
          message: "username: A username has 3 to 30 characters: lower-case letters, digits and dashes.",
        },
      });
    }
    const reserved = await call("POST", "/api/v1/updateUsername", {
      token: world.members.o2Owner.token,
      body: { username: "app" },
    });
    expect(reserved).toMatchObject({
      status: 400,
      body: { message: "This username is reserved. Choose another." },
    });
  });

  it("answers the public fields only, with no token", async () => {
    const res = await call("GET", `/api/v1/account/BLUE-${world.tag}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.account).sort()).toEqual([
      "accountType",
      "details",
      "displayName",
      "socialLinks",
      "socialLinksPosition",
      "switchboardPhoneNumber",
      "username",
    ]);
    expect(res.body.account).toMatchObject({
      username: `blue-${world.tag}`,
      accountType: "organization",
      socialLinks: { x: "@bluebird" },
    });
    expect(JSON.stringify(res.body)).not.toContain(world.accounts.O1.email ?? "?");
  });

  it("404 for an unknown username", async () => {
    const res = await call("GET", "/api/v1/account/nobody-here");
    expect(res).toMatchObject({ status: 404, body: { success: false, message: "Profile not found" } });
  });
});

describe("super admin: enable and disable", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });

  async function signIn(email: string) {
    const sent = await call("POST", "/api/v1/signin/email", { body: { email } });
    if (sent.status !== 200) return sent;
    const outbox = await call("GET", "/api/dev/outbox", { query: { limit: 5 } });
    const message = outbox.body.messages.find((m: { to: string }) => m.to === email);
    const code = /\b(\d{6})\b/.exec(message.body)?.[1];
    return call("POST", "/api/v1/email/verify", { body: { email, verificationCode: code } });
  }

  it("only a super admin may enable or disable", async () => {
    for (const token of [w.members.p1Owner.token, w.members.o1Owner.token]) {
      const res = await call("POST", "/api/v1/disableAccount", {
        adminToken: token,
        body: { username: w.accounts.O1.username },
      });
      expect(res).toMatchObject({ status: 403, body: { message: "Only a super admin can do this." } });
    }
  });

  it("disable answers 'Organization disabled!'; the account can then neither sign in nor be a target", async () => {
    const res = await call("POST", "/api/v1/disableAccount", {
      adminToken: w.members.superAdmin.token,
      body: { username: w.accounts.O1.username.toUpperCase(), reason: "fraud", details: "chargebacks" },
    });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: "Organization disabled!" } });
    const [row] = await app.context.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, w.accounts.O1.id));
    expect(row).toMatchObject({ disabledReason: "fraud", disabledDetails: "chargebacks" });
    expect(row?.disabledAt).toBeInstanceOf(Date);

    expect(await signIn(w.members.o1Owner.email)).toMatchObject({
      status: 403,
      body: { message: "This account is disabled." },
    });
    const ownToken = await call("GET", "/api/v1/account", { token: w.members.o1Owner.token });
    expect(ownToken).toMatchObject({ status: 403, body: { message: "This account is disabled." } });
    const asTarget = await call("GET", "/api/v2/listAccounts", {
      token: w.members.r1Owner.token,
      targetAccountId: w.accounts.O1.id,
    });
    expect(asTarget).toMatchObject({ status: 403, body: { message: "This account is disabled." } });
    const byId = await call("DELETE", "/api/v2/deleteOrganization", {
      token: w.members.r1Owner.token,
      body: { targetOrganizationId: w.accounts.O1.id },
    });
    expect(byId.status).toBe(403);
    expect((await call("GET", `/api/v1/account/${w.accounts.O1.username}`)).status).toBe(404);
    // The super admin still reaches it, to look and to enable it again.
    const superAdmin = await call("GET", "/api/v1/account", {
      token: w.members.superAdmin.token,
      targetAccountId: w.accounts.O1.id,
    });
    expect(superAdmin.body.account).toMatchObject({ id: w.accounts.O1.id, disabled: true });
  });

  it("enable answers 'Account enabled!' and the account works again", async () => {
    const res = await call("POST", "/api/v1/enableAccount", {
      adminToken: w.members.superAdmin.token,
      body: { username: w.accounts.O1.username },
    });
    expect(res.body).toEqual({ success: true, message: "Account enabled!" });
    expect((await call("GET", "/api/v1/account", { token: w.members.o1Owner.token })).status).toBe(200);
    expect((await signIn(w.members.o1Owner.email)).status).toBe(200);
  });

  it("an unknown username answers 404", async () => {
    const res = await call("POST", "/api/v1/enableAccount", {
      adminToken: w.members.superAdmin.token,
      body: { username: "no-such-account" },
    });
    expect(res).toMatchObject({ status: 404, body: { success: false, message: "Account not found" } });
  });
});
