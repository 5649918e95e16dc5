import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../../../test/api-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts, authTokens, domains, users } from "../../db/schema/index.ts";

let app: FastifyInstance;
let call: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  app = await buildTestApp();
  call = apiCaller(app);
});
afterAll(async () => {
  await app.close();
});

const db = () => app.context.database.db;

async function invitationLink(to: string): Promise<URL> {
  const outbox = await call("GET", "/api/dev/outbox", { query: { limit: 20 } });
  const message = outbox.body.messages.find((m: { to: string }) => m.to === to);
  const link = /(https?:\/\/\S+)/.exec(message?.body ?? "")?.[1];
  if (!link) throw new Error(`no invitation to ${to}`);
  return new URL(link);
}

async function signInWith(link: URL) {
  const oneTimeToken = link.searchParams.get("oneTimeToken") ?? "";
  const session = await call("GET", "/api/v1/oneTimeAuth", { query: { oneTimeToken } });
  return call("GET", "/api/v1/account", { token: session.body.token });
}

describe("POST /api/v2/inviteAdminUser", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const invite = (token: string, body: Record<string, unknown>, targetAccountId?: number) =>
    call("POST", "/api/v2/inviteAdminUser", {
      token,
      body,
      ...(targetAccountId ? { targetAccountId } : {}),
    });

  it("adds a new person as admin (isOwner false by default) and e-mails a link that signs them in", async () => {
    const email = `new-admin-${w.tag}@example.com`;
    const res = await invite(w.members.o1Owner.token, { email: email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: `Invitation sent to ${email}.`,
      user: { email, role: "admin", fullName: null },
    });
    const link = await invitationLink(email);
    expect(`${link.origin}${link.pathname}`).toBe("http://127.0.0.1:3000/app");
    const me = await signInWith(link);
    expect(me.body).toMatchObject({ account: { id: w.accounts.O1.id }, role: "admin" });
    expect(me.body.permissions.canViewBilling).toBe(false);
    const [token] = await db()
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.userId, res.body.user.id), eq(authTokens.kind, "oneTime")));
    const days = ((token?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
  });

  it("the link leads to redirectUrl when it is this product or the partner's white-label host", async () => {
    await db()
      .insert(domains)
      .values({ accountId: w.accounts.P1.id, host: `voice-${w.tag}.example` });
    await db()
      .insert(domains)
      .values({ accountId: w.accounts.P2.id, host: `other-${w.tag}.example` });
    const ok = [`https://voice-${w.tag}.example/app/welcome?x=1`, "http://127.0.0.1:5173/app"];
    for (const [i, redirectUrl] of ok.entries()) {
      const email = `redirect-${i}-${w.tag}@example.com`;
      expect((await invite(w.members.o1Owner.token, { email, redirectUrl })).status).toBe(200);
      const link = await invitationLink(email);
      expect(link.toString().startsWith(redirectUrl.replace(/\?.*$/, ""))).toBe(true);
      expect(link.searchParams.get("oneTimeToken")).toMatch(/.{20,}/);
    }
    for (const redirectUrl of [`https://other-${w.tag}.example/app`, "https://evil.example/app"]) {
      const res = await invite(w.members.o1Owner.token, { email: `x-${w.tag}@example.com`, redirectUrl });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^redirectUrl: /);
    }
  });

  it("only owners and those above make owners; re-inviting raises an admin, never lowers an owner", async () => {
    const email = `second-owner-${w.tag}@example.com`;
    const byAdmin = await invite(w.members.o1Admin.token, { email, isOwner: true });
    expect(byAdmin).toMatchObject({
      status: 403,
      body: { message: "Only an owner can make someone an owner." },
    });
    expect((await invite(w.members.o1Admin.token, { email })).body.user.role).toBe("admin");
    expect((await invite(w.members.o1Owner.token, { email, isOwner: true })).body.user.role).toBe("owner");
    expect((await invite(w.members.o1Owner.token, { email })).body.user.role).toBe("owner");
    const byReseller = await invite(
      w.members.r1Owner.token,
      { email: `reseller-made-${w.tag}@example.com`, isOwner: true },
      w.accounts.O1.id,
    );
    expect(byReseller.body.user.role).toBe("owner");
  });

  it("an existing user is added, not duplicated", async () => {
    const res = await invite(w.members.o1Owner.token, { email: w.members.o2Owner.email });
    expect(res.body.user.id).toBe(w.members.o2Owner.userId);
    const rows = await db().select().from(users).where(eq(users.email, w.members.o2Owner.email));
    expect(rows).toHaveLength(1);
  });

  it("needs canInviteUsers: off when the partner hides members, except for those above", async () => {
    await db()
      .update(accounts)
      .set({ settings: { showMembers: false } })
      .where(eq(accounts.id, w.accounts.O1.id));
    for (const token of [w.members.o1Owner.token, w.members.o1Admin.token]) {
      const res = await invite(token, { email: `hidden-${w.tag}@example.com` });
      expect(res).toMatchObject({ status: 403, body: { message: "You do not have permission to do this." } });
      const list = await call("GET", "/api/v2/listAdminUsers", { token });
      expect(list.status).toBe(403);
    }
    const above = await invite(
      w.members.r1Owner.token,
      { email: `hidden-${w.tag}@example.com` },
      w.accounts.O1.id,
    );
    expect(above.status).toBe(200);
    await db().update(accounts).set({ settings: {} }).where(eq(accounts.id, w.accounts.O1.id));
  });

  it("agent accounts have no admin users", async () => {
    const res = await invite(
      w.members.o1Owner.token,
      { email: `agent-${w.tag}@example.com` },
      w.accounts.A1.id,
    );
    expect(res.status).toBe(400);
  });
});

describe("GET /api/v2/listAdminUsers and DELETE /api/v2/deleteAdminUser", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const remove = (token: string, targetUserId: number, targetAccountId?: number) =>
    call("DELETE", "/api/v2/deleteAdminUser", {
      token,
      body: { targetUserId },
      ...(targetAccountId ? { targetAccountId } : {}),
    });

  it("lists the organisation's users with their role, owners first; admins may list", async () => {
    for (const token of [w.members.o1Owner.token, w.members.o1Admin.token]) {
      const res = await call("GET", "/api/v2/listAdminUsers", { token });
      expect(res.status).toBe(200);
      expect(res.body.users.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([
        [w.members.o1Owner.email, "owner"],
        [w.members.o1Admin.email, "admin"],
      ]);
    }
    const fromAbove = await call("GET", "/api/v2/listAdminUsers", {
      token: w.members.p1Owner.token,
      targetAccountId: w.accounts.O1.id,
    });
    expect(fromAbove.body.users).toHaveLength(2);
  });

  it("an admin cannot remove an owner; nobody removes the last owner", async () => {
    const byAdmin = await remove(w.members.o1Admin.token, w.members.o1Owner.userId);
    expect(byAdmin).toMatchObject({ status: 403, body: { message: "Only an owner can remove an owner." } });
    const last = await remove(w.members.o1Owner.token, w.members.o1Owner.userId);
    expect(last).toMatchObject({ status: 409, body: { message: "The last owner cannot be removed." } });
    const lastFromAbove = await remove(
      w.members.superAdmin.token,
      w.members.o1Owner.userId,
      w.accounts.O1.id,
    );
    expect(lastFromAbove.status).toBe(409);
  });

  it("a user of another account is not found", async () => {
    const res = await remove(w.members.o1Owner.token, w.members.o2Owner.userId);
    expect(res).toMatchObject({ status: 404, body: { message: "User not found" } });
  });

  it("removing a user ends their access to the account", async () => {
    expect((await call("GET", "/api/v1/account", { token: w.members.o1Admin.token })).status).toBe(200);
    const res = await remove(w.members.o1Owner.token, w.members.o1Admin.userId);
    expect(res.body).toEqual({ success: true, message: "User removed." });
    expect((await call("GET", "/api/v1/account", { token: w.members.o1Admin.token })).status).toBe(401);
    const list = await call("GET", "/api/v2/listAdminUsers", { token: w.members.o1Owner.token });
    expect(list.body.users).toHaveLength(1);
  });

  it("with two owners, one may remove the other", async () => {
    const invited = await call("POST", "/api/v2/inviteAdminUser", {
      token: w.members.o1Owner.token,
      body: { email: `co-owner-${w.tag}@example.com`, isOwner: true },
    });
    const res = await remove(w.members.o1Owner.token, invited.body.user.id);
    expect(res.status).toBe(200);
  });
});
