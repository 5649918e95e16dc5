import * as api from "@switchboard/api";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts, authTokens, domains, users } from "../../db/schema/index.ts";

let app: FastifyInstance;
let client: TestClient;

beforeAll(async () => {
  app = await buildTestApp();
  client = testClient(app);
});
afterAll(async () => {
  await app.close();
});

const db = () => app.context.database.db;

async function invitationLink(to: string): Promise<URL> {
  const outbox = await client().call(api.devOutbox, { query: { limit: 20 } });
  const message = outbox.messages.find((m) => m.to === to);
  const link = /(https?:\/\/\S+)/.exec(message?.body ?? "")?.[1];
  if (!link) throw new Error(`no invitation to ${to}`);
  return new URL(link);
}

async function signInWith(link: URL) {
  const oneTimeToken = link.searchParams.get("oneTimeToken") ?? "";
  const session = await client().call(api.oneTimeAuth, { query: { oneTimeToken } });
  return client(session.token).call(api.getAccount);
}

describe("POST /api/v2/inviteAdminUser", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const invite = (token: string, body: api.RouteBody<typeof api.inviteAdminUser>, targetAccountId?: number) =>
    client(token, targetAccountId).call(api.inviteAdminUser, { body });

  it("adds a new person as admin (isOwner false by default) and e-mails a link that signs them in", async () => {
    const email = `new-admin-${w.tag}@example.com`;
    const res = await invite(w.members.o1Owner.token, { email: email.toUpperCase() });
    expect(res).toMatchObject({
      success: true,
      message: `Invitation sent to ${email}.`,
      user: { email, role: "admin", fullName: null, invited: true },
    });
    const link = await invitationLink(email);
    expect(`${link.origin}${link.pathname}`).toBe("http://127.0.0.1:3000/app");
    const listed = async () =>
      (await client(w.members.o1Owner.token).call(api.listAdminUsers)).users.find((u) => u.email === email);
    // Invited until the first sign-in, then a member like the others (issue #23 item 11).
    expect(await listed()).toMatchObject({ invited: true });
    const me = await signInWith(link);
    expect(await listed()).toMatchObject({ invited: false });
    expect(me).toMatchObject({ account: { id: w.accounts.O1.id }, role: "admin" });
    expect(me.permissions.canViewBilling).toBe(false);
    const [token] = await db()
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.userId, res.user.id), eq(authTokens.kind, "oneTime")));
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
      await invite(w.members.o1Owner.token, { email, redirectUrl });
      const link = await invitationLink(email);
      expect(link.toString().startsWith(redirectUrl.replace(/\?.*$/, ""))).toBe(true);
      expect(link.searchParams.get("oneTimeToken")).toMatch(/.{20,}/);
    }
    for (const redirectUrl of [`https://other-${w.tag}.example/app`, "https://evil.example/app"]) {
      await expectRefusal(
        invite(w.members.o1Owner.token, { email: `x-${w.tag}@example.com`, redirectUrl }),
        400,
        /^redirectUrl: /,
      );
    }
  });

  it("only owners and those above make owners; re-inviting raises an admin, never lowers an owner", async () => {
    const email = `second-owner-${w.tag}@example.com`;
    await expectRefusal(
      invite(w.members.o1Admin.token, { email, isOwner: true }),
      403,
      "Only an owner can make someone an owner.",
    );
    expect((await invite(w.members.o1Admin.token, { email })).user.role).toBe("admin");
    expect((await invite(w.members.o1Owner.token, { email, isOwner: true })).user.role).toBe("owner");
    expect((await invite(w.members.o1Owner.token, { email })).user.role).toBe("owner");
    const byReseller = await invite(
      w.members.r1Owner.token,
      { email: `reseller-made-${w.tag}@example.com`, isOwner: true },
      w.accounts.O1.id,
    );
    expect(byReseller.user.role).toBe("owner");
  });

  it("an existing user is added, not duplicated", async () => {
    const res = await invite(w.members.o1Owner.token, { email: w.members.o2Owner.email });
    expect(res.user.id).toBe(w.members.o2Owner.userId);
    const rows = await db().select().from(users).where(eq(users.email, w.members.o2Owner.email));
    expect(rows).toHaveLength(1);
  });

  it("needs canInviteUsers: off when the partner hides members, except for those above", async () => {
    await db()
      .update(accounts)
      .set({ settings: { showMembers: false } })
      .where(eq(accounts.id, w.accounts.O1.id));
    for (const token of [w.members.o1Owner.token, w.members.o1Admin.token]) {
      await expectRefusal(
        invite(token, { email: `hidden-${w.tag}@example.com` }),
        403,
        "You do not have permission to do this.",
      );
      await expectRefusal(client(token).call(api.listAdminUsers), 403);
    }
    await invite(w.members.r1Owner.token, { email: `hidden-${w.tag}@example.com` }, w.accounts.O1.id);
    await db().update(accounts).set({ settings: {} }).where(eq(accounts.id, w.accounts.O1.id));
  });

  it("agent accounts have no admin users", async () => {
    await expectRefusal(
      invite(w.members.o1Owner.token, { email: `agent-${w.tag}@example.com` }, w.accounts.A1.id),
      400,
    );
  });
});

describe("GET /api/v2/listAdminUsers and DELETE /api/v2/deleteAdminUser", () => {
  let w: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    w = await buildHierarchy(app);
  });
  const remove = (token: string, targetUserId: number, targetAccountId?: number) =>
    client(token, targetAccountId).call(api.deleteAdminUser, { body: { targetUserId } });

  it("lists the organisation's users with their role, owners first; admins may list", async () => {
    for (const token of [w.members.o1Owner.token, w.members.o1Admin.token]) {
      const res = await client(token).call(api.listAdminUsers);
      expect(res.users.map((u) => [u.email, u.role])).toEqual([
        [w.members.o1Owner.email, "owner"],
        [w.members.o1Admin.email, "admin"],
      ]);
    }
    const fromAbove = await client(w.members.p1Owner.token, w.accounts.O1.id).call(api.listAdminUsers);
    expect(fromAbove.users).toHaveLength(2);
  });

  it("an admin cannot remove an owner; nobody removes the last owner", async () => {
    await expectRefusal(
      remove(w.members.o1Admin.token, w.members.o1Owner.userId),
      403,
      "Only an owner can remove an owner.",
    );
    await expectRefusal(
      remove(w.members.o1Owner.token, w.members.o1Owner.userId),
      409,
      "The last owner cannot be removed.",
    );
    await expectRefusal(remove(w.members.superAdmin.token, w.members.o1Owner.userId, w.accounts.O1.id), 409);
  });

  it("a user of another account is not found", async () => {
    await expectRefusal(remove(w.members.o1Owner.token, w.members.o2Owner.userId), 404, "User not found");
  });

  it("removing a user ends their access to the account", async () => {
    await client(w.members.o1Admin.token).call(api.getAccount);
    const res = await remove(w.members.o1Owner.token, w.members.o1Admin.userId);
    expect(res).toEqual({ success: true, message: "User removed." });
    await expectRefusal(client(w.members.o1Admin.token).call(api.getAccount), 401);
    const list = await client(w.members.o1Owner.token).call(api.listAdminUsers);
    expect(list.users).toHaveLength(1);
  });

  it("with two owners, one may remove the other", async () => {
    const invited = await client(w.members.o1Owner.token).call(api.inviteAdminUser, {
      body: { email: `co-owner-${w.tag}@example.com`, isOwner: true },
    });
    await remove(w.members.o1Owner.token, invited.user.id);
  });
});
