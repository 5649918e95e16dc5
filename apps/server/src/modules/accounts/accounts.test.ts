import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as api from "@switchboard/api";
import { count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { apiCaller, fakePng } from "../../../test/api-call.ts";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts, domains } from "../../db/schema/index.ts";
import { DEMO_WHITE_LABEL_HOST, seedDemoData } from "../../demo/seed.ts";
import { platformPartner } from "./platform-partner.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
/** Raw requests: bodies the typed client would not send, and the file server's headers and bytes. */
let call: ReturnType<typeof apiCaller>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "switchboard-accounts-"));
  app = await buildTestApp({ DATA_DIR: dataDir });
  world = await buildHierarchy(app);
  client = testClient(app);
  call = apiCaller(app);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

const getAccount = (token: string, targetAccountId?: number, query?: api.RouteQuery<typeof api.getAccount>) =>
  client(token, targetAccountId).call(api.getAccount, { query });

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
    const target = world.accounts.O1.id;
    const asReseller = await getAccount(world.members.r1Owner.token, target);
    expect(asReseller).toMatchObject({
      viewingAs: "reseller",
      actingAsHigherRole: true,
      allowedViewingAs: ["reseller", "owner", "admin"],
    });
    expect(Object.values(asReseller.permissions).every(Boolean)).toBe(true);
    const asAdmin = await getAccount(world.members.r1Owner.token, target, { viewingAs: "admin" });
    expect(asAdmin).toMatchObject({ viewingAs: "admin", actingAsHigherRole: false });
    expect(asAdmin.permissions.canViewBilling).toBe(false);
  });

  it("a viewing-as value above the caller's rank falls back to the default", async () => {
    const body = await getAccount(world.members.r1Owner.token, undefined, { viewingAs: "superAdmin" });
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

describe("GET /api/v1/account: the time zone the account in view reads its times in", () => {
  const setZone = (token: string, timeZone: string | null, targetAccountId?: number) =>
    client(token, targetAccountId).call(api.saveAccountSetting, { body: { settings: { timeZone } } });

  it("an agent reads in its organisation's zone whoever views it, not the partner's", async () => {
    const { P1, R1, O1, A1 } = world.accounts;
    await setZone(world.members.p1Owner.token, "America/New_York");
    await setZone(world.members.o1Owner.token, "America/Los_Angeles");

    const asPartner = await getAccount(world.members.p1Owner.token, A1.id);
    expect(asPartner.account).toMatchObject({ id: A1.id, accountType: "agent" });
    expect(asPartner.account.settings.timeZone).toBeUndefined();
    expect(asPartner.homeAccount?.settings.timeZone).toBe("America/New_York");
    expect(asPartner.timeZone).toBe("America/Los_Angeles");
    for (const token of [world.members.r1Owner.token, world.members.superAdmin.token]) {
      expect((await getAccount(token, A1.id)).timeZone).toBe("America/Los_Angeles");
    }
    expect((await getAccount(world.members.o1Owner.token, A1.id)).timeZone).toBe("America/Los_Angeles");
    // The organisation viewed by its partner reads in its own zone; the partner's own account in its own.
    expect((await getAccount(world.members.p1Owner.token, O1.id)).timeZone).toBe("America/Los_Angeles");
    expect((await getAccount(world.members.p1Owner.token)).timeZone).toBe("America/New_York");
    // The reseller has no zone of its own: the partner's above it.
    expect((await getAccount(world.members.p1Owner.token, R1.id)).timeZone).toBe("America/New_York");
    expect(P1.settings.timeZone).toBeUndefined();
  });

  it("an organisation with no zone on it or above it answers null", async () => {
    const body = await getAccount(world.members.o2Owner.token);
    expect(body.account.id).toBe(world.accounts.O2.id);
    expect(body.timeZone).toBeNull();
    expect((await getAccount(world.members.superAdmin.token, world.accounts.A2.id)).timeZone).toBeNull();
  });
});

describe("demo data", () => {
  // Seeding the whole demo (its months of calls too) takes half a minute on a busy machine.
  it("seeds the hierarchy once into an empty database and never into one with accounts", {
    timeout: within(60_000),
  }, async () => {
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
    const res = await client(w.members.o1Owner.token).call(api.saveAccount, {
      body: {
        email: "Billing@Bluebird.example",
        name: "Bluebird Dental Group",
        accountName: "Bluebird",
        externalAccountId: "crm-17",
        externalBillingId: "cus_123",
        phoneNumber: "(555) 010-2000",
      },
    });
    expect(res.account).toMatchObject({
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
    const res = await client(w.members.o1Admin.token).call(api.saveAccount, {
      body: { accountName: "", externalBillingId: null },
    });
    expect(res.account.details.accountName).toBeUndefined();
    expect(res.account).toMatchObject({ externalBillingId: null, externalAccountId: "crm-17" });
  });

  it("a reseller updates an agent account below it (agentName) through /api/v2/updateAccount", async () => {
    const res = await client(w.members.r1Owner.token, w.accounts.A1.id).call(api.updateAccount, {
      body: { name: "Front Desk" },
    });
    expect(res.account).toMatchObject({
      id: w.accounts.A1.id,
      accountType: "agent",
      details: { agentName: "Front Desk" },
    });
  });

  it("refuses bad fields with the field's message, and accounts outside the caller's tree", async () => {
    const bad = await expectRefusal(
      client(w.members.o1Owner.token).call(api.saveAccount, { body: { email: "not-an-address" } }),
      400,
      "email: Enter a valid e-mail address.",
    );
    expect(bad.body.success).toBe(false);
    const foreign = await expectRefusal(
      client(w.members.o1Owner.token, w.accounts.O2.id).call(api.updateAccount, {
        body: { name: "Taken over" },
      }),
      404,
      "Account not found",
    );
    expect(foreign.body.success).toBe(false);
  });
});

describe("POST /api/v2/updateOrganization", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });

  it("answers 'Account type does not match' when the target is not an organisation", async () => {
    await expectRefusal(
      client(w.members.r1Owner.token, w.accounts.A1.id).call(api.updateOrganization, { body: { name: "x" } }),
      400,
      "Account type does not match",
    );
  });

  it("premium and smsEnabled change only from above: the reseller may, the owner may not", async () => {
    const owner = await expectRefusal(
      client(w.members.o1Owner.token).call(api.updateOrganization, { body: { premium: true } }),
      403,
    );
    expect(owner.message).toContain("premium or smsEnabled");
    // Sending the current value is not a change.
    await client(w.members.o1Owner.token).call(api.updateOrganization, {
      body: { premium: false, name: "Renamed" },
    });
    const reseller = await client(w.members.r1Owner.token, w.accounts.O1.id).call(api.updateOrganization, {
      body: { premium: true, smsEnabled: true },
    });
    expect(reseller.account).toMatchObject({ premium: true, smsEnabled: true, displayName: "Renamed" });
  });
});

describe("POST /api/v1/accountSetting", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const save = (
    token: string,
    settings: api.RouteBody<typeof api.saveAccountSetting>["settings"],
    targetAccountId?: number,
  ) => client(token, targetAccountId).call(api.saveAccountSetting, { body: { settings } });

  it("merges keys into the settings; null removes one", async () => {
    const token = w.members.o1Owner.token;
    await save(token, { favorites: [3, 1], walkthrough: { version: 1, completed: [] } });
    const res = await save(token, {
      onboarding: { activeStep: 2, onboardingComplete: false },
      walkthrough: null,
    });
    expect(res).toMatchObject({ success: true });
    expect(res.settings).toEqual({
      favorites: [3, 1],
      onboarding: { activeStep: 2, onboardingComplete: false },
    });
  });

  it("the organisation's own users cannot change partner-controlled flags", async () => {
    for (const member of [w.members.o1Owner, w.members.o1Admin]) {
      const res = await expectRefusal(save(member.token, { showBilling: false, favorites: [] }), 403);
      expect(res.body).toEqual({
        success: false,
        message: "Only a super admin, partner or reseller above this account can change showBilling.",
      });
    }
    // Re-sending unchanged (unset) flags with other settings is fine.
    await save(w.members.o1Owner.token, { showBilling: null, favorites: [1] });
  });

  it("a reseller, partner or super admin above the organisation may, and the flags take effect", async () => {
    const O1 = w.accounts.O1.id;
    await save(w.members.r1Owner.token, { showBilling: false }, O1);
    await save(w.members.p1Owner.token, { allowTasks: false }, O1);
    await save(w.members.superAdmin.token, { allowEmbeds: false }, O1);
    const account = await getAccount(w.members.o1Owner.token);
    expect(account.permissions).toMatchObject({
      canViewBilling: false,
      canViewTasks: false,
      canViewEmbeds: false,
      canAddAgents: true,
    });
    // Sending the value in force is not a change, so the owner may save the whole object back.
    await save(w.members.o1Owner.token, { showBilling: false, allowTasks: false, favorites: [] });
  });

  it("a reseller viewing as owner sees the organisation's view and cannot change flags either", async () => {
    // viewingAs is read by the access hook from any call's query, outside each route's own schema.
    await expectRefusal(
      client(w.members.r1Owner.token, w.accounts.O1.id).call(api.saveAccountSetting, {
        query: { viewingAs: "owner" } as never,
        body: { settings: { showBilling: true } },
      }),
      403,
    );
  });

  it("a partner or reseller sets the flags of its own account (e.g. closing sign-up under it)", async () => {
    for (const member of [w.members.p1Owner, w.members.r1Owner]) {
      const res = await save(member.token, { allowSignup: false });
      expect(res.settings.allowSignup).toBe(false);
    }
    await expectRefusal(
      client().call(api.signupEmail, {
        body: { email: `late-${w.tag}@example.com`, accountId: w.accounts.R1.id },
      }),
      403,
      "Sign-up is closed for this partner.",
    );
  });

  it("flags are booleans", async () => {
    // A string where a flag's boolean goes: raw, since the typed client's body type refuses it.
    const res = await call("POST", "/api/v1/accountSetting", {
      token: w.members.r1Owner.token,
      body: { settings: { showMembers: "yes" } },
    });
    expect(res).toMatchObject({ status: 400 });
    expect(res.body.message).toMatch(/^settings\.showMembers: /);
  });
});

describe("POST /api/v1/account/socialLinks", () => {
  it("replaces the links (empty ones dropped) and their position", async () => {
    const res = await client(world.members.o1Owner.token).call(api.saveSocialLinks, {
      body: {
        socialLinks: { instagram: "https://instagram.com/bluebird", x: "@bluebird", tiktok: "" },
        socialLinksPosition: "bottom",
      },
    });
    expect(res).toEqual({
      success: true,
      socialLinks: { instagram: "https://instagram.com/bluebird", x: "@bluebird" },
      socialLinksPosition: "bottom",
    });
  });

  it("refuses script links", async () => {
    const res = await expectRefusal(
      client(world.members.o1Owner.token).call(api.saveSocialLinks, {
        body: { socialLinks: { site: "javascript:alert(1)" } },
      }),
      400,
    );
    expect(res.message).toContain("socialLinks.site");
  });
});

describe("POST /api/v1/profile/dp", () => {
  const upload = (token: string, data: Buffer, options: { filename?: string; contentType?: string } = {}) => {
    const form = new FormData();
    form.append(
      "image",
      new Blob([new Uint8Array(data)], { type: options.contentType ?? "image/png" }),
      options.filename ?? "picture.png",
    );
    return client(token).call(api.uploadProfileImage, { form });
  };

  it("stores a PNG, points details.image at it and serves it read-only; a new image replaces it", async () => {
    const token = world.members.o1Owner.token;
    const first = await upload(token, fakePng(200));
    const url = first.image;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/files\/avatars\/[0-9a-f]{24}\.png$/);
    expect(first.account.details.image).toBe(url);
    // The file server is no API route: raw, to read its headers and bytes.
    const served = await call("GET", new URL(url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.raw.equals(fakePng(200))).toBe(true);
    expect((await call("PUT", new URL(url).pathname)).status).toBe(404);

    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(20)]);
    const second = await upload(token, gif, { filename: "a.gif", contentType: "image/gif" });
    expect(second.image).toMatch(/\.gif$/);
    expect((await call("GET", new URL(url).pathname)).status).toBe(404);
  });

  it("recognises the type by content, not by name or header", async () => {
    const res = await expectRefusal(
      upload(world.members.o1Owner.token, Buffer.from("<svg onload=alert(1)>"), { filename: "x.png" }),
      415,
      "The image must be a PNG, JPEG, WebP or GIF file.",
    );
    expect(res.body.success).toBe(false);
  });

  it("refuses images over 2 MB, requests that are not multipart, and uploads without a file", async () => {
    await expectRefusal(
      upload(world.members.o1Owner.token, fakePng(2 * 1024 * 1024 + 1)),
      413,
      "The image is larger than 2 MB.",
    );
    // A JSON body where multipart belongs: raw, since the typed client sends this route only as a form.
    const json = await call("POST", "/api/v1/profile/dp", { token: world.members.o1Owner.token, body: {} });
    expect(json).toMatchObject({ status: 400, body: { message: "Send the image as multipart/form-data." } });
  });

  it("never serves anything but a stored file", async () => {
    // The file server is no API route: raw paths, some deliberately malformed.
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
  const updateUsername = (token: string, username: string) =>
    client(token).call(api.updateUsername, { body: { username } });

  it("changes the username (lower-cased); a taken one, in any case, answers 409", async () => {
    const res = await updateUsername(world.members.o1Owner.token, `Blue-${world.tag}`);
    expect(res.account.username).toBe(`blue-${world.tag}`);
    const taken = await expectRefusal(
      updateUsername(world.members.o2Owner.token, `BLUE-${world.tag}`),
      409,
      "This username is taken. Choose another.",
    );
    expect(taken.body.success).toBe(false);
  });

  it("refuses malformed and reserved usernames", async () => {
    for (const username of ["ab", "has space", "a".repeat(31), "dots.not.allowed"]) {
      await expectRefusal(
        updateUsername(world.members.o2Owner.token, username),
        400,
        "username: A username has 3 to 30 characters: lower-case letters, digits and dashes.",
      );
    }
    await expectRefusal(
      updateUsername(world.members.o2Owner.token, "app"),
      400,
      "This username is reserved. Choose another.",
    );
  });

  it("answers the public fields only, with no token", async () => {
    const res = await client().call(api.getPublicProfile, { params: { username: `BLUE-${world.tag}` } });
    expect(Object.keys(res.account).sort()).toEqual([
      "accountType",
      "details",
      "displayName",
      "socialLinks",
      "socialLinksPosition",
      "switchboardPhoneNumber",
      "username",
    ]);
    expect(res.account).toMatchObject({
      username: `blue-${world.tag}`,
      accountType: "organization",
      socialLinks: { x: "@bluebird" },
    });
    expect(JSON.stringify(res)).not.toContain(world.accounts.O1.email ?? "?");
  });

  it("404 for an unknown username", async () => {
    const res = await expectRefusal(
      client().call(api.getPublicProfile, { params: { username: "nobody-here" } }),
      404,
      "Profile not found",
    );
    expect(res.body.success).toBe(false);
  });
});

describe("super admin: enable and disable", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });

  /** Signs in by e-mailed code; a refusal at either step rejects. */
  async function signIn(email: string) {
    await client().call(api.signinEmail, { body: { email } });
    const outbox = await client().call(api.devOutbox, { query: { limit: 5 } });
    const message = outbox.messages.find((m) => m.to === email);
    const code = /\b(\d{6})\b/.exec(message?.body ?? "")?.[1] ?? "";
    return client().call(api.emailVerify, { body: { email, verificationCode: code } });
  }
  // The client sends the caller's token as `token`, which an adminToken route also reads.
  const disable = (token: string, body: api.RouteBody<typeof api.disableAccount>) =>
    client(token).call(api.disableAccount, { body });
  const enable = (token: string, username: string) =>
    client(token).call(api.enableAccount, { body: { username } });

  it("only a super admin may enable or disable", async () => {
    for (const token of [w.members.p1Owner.token, w.members.o1Owner.token]) {
      await expectRefusal(
        disable(token, { username: w.accounts.O1.username }),
        403,
        "Only a super admin can do this.",
      );
    }
  });

  it("disable answers 'Organization disabled!'; the account can then neither sign in nor be a target", async () => {
    const res = await disable(w.members.superAdmin.token, {
      username: w.accounts.O1.username.toUpperCase(),
      reason: "fraud",
      details: "chargebacks",
    });
    expect(res).toMatchObject({ success: true, message: "Organization disabled!" });
    const [row] = await app.context.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, w.accounts.O1.id));
    expect(row).toMatchObject({ disabledReason: "fraud", disabledDetails: "chargebacks" });
    expect(row?.disabledAt).toBeInstanceOf(Date);

    await expectRefusal(signIn(w.members.o1Owner.email), 403, "This account is disabled.");
    await expectRefusal(getAccount(w.members.o1Owner.token), 403, "This account is disabled.");
    await expectRefusal(
      client(w.members.r1Owner.token, w.accounts.O1.id).call(api.listAgentAccounts),
      403,
      "This account is disabled.",
    );
    await expectRefusal(
      client(w.members.r1Owner.token).call(api.deleteOrganization, {
        body: { targetOrganizationId: w.accounts.O1.id },
      }),
      403,
    );
    await expectRefusal(
      client().call(api.getPublicProfile, { params: { username: w.accounts.O1.username } }),
      404,
    );
    // The super admin still reaches it, to look and to enable it again.
    const superAdmin = await getAccount(w.members.superAdmin.token, w.accounts.O1.id);
    expect(superAdmin.account).toMatchObject({ id: w.accounts.O1.id, disabled: true });
  });

  it("enable answers 'Account enabled!' and the account works again", async () => {
    const res = await enable(w.members.superAdmin.token, w.accounts.O1.username);
    expect(res).toEqual({ success: true, message: "Account enabled!" });
    await getAccount(w.members.o1Owner.token);
    await signIn(w.members.o1Owner.email);
  });

  it("an unknown username answers 404", async () => {
    const res = await expectRefusal(
      enable(w.members.superAdmin.token, "no-such-account"),
      404,
      "Account not found",
    );
    expect(res.body.success).toBe(false);
  });
});
