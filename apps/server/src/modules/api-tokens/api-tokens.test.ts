import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, injectFetch, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { authTokens } from "../../db/schema/index.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

/** The typed client sending the token as `Authorization: Bearer`, as a server of the customer would. */
function bearer(token: string, targetAccountId?: number) {
  const inject = injectFetch(app);
  return api.createApiClient({
    getTargetAccountId: () => targetAccountId,
    fetch: (input, init = {}) =>
      inject(input, { ...init, headers: { ...(init.headers as object), authorization: `Bearer ${token}` } }),
  });
}

describe("organisation API tokens", () => {
  const owner = () => testClient(app)(world.members.o1Owner.token);

  it("is shown once, stored hashed, listed masked with its last use, and calls the API as Bearer", async () => {
    const made = await owner().call(api.createApiToken, { body: { description: "CRM sync", type: "full" } });
    expect(made.token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    expect(made.apiToken).toMatchObject({ description: "CRM sync", type: "full", lastUsedAt: null });
    expect(made.apiToken.token).not.toBe(made.token);
    expect(made.token.endsWith(made.apiToken.token.slice(-4))).toBe(true);
    // Only a hash is kept.
    const rows = await app.context.database.db.select().from(authTokens).where(eq(authTokens.kind, "api"));
    expect(rows.some((row) => row.tokenHash === made.token)).toBe(false);
    expect(JSON.stringify(await owner().call(api.listApiTokens))).not.toContain(made.token);

    // It acts for its organisation: the account, the contacts, a change.
    const { account } = await bearer(made.token).call(api.getAccount);
    expect(account.id).toBe(world.accounts.O1.id);
    const saved = await bearer(made.token).call(api.saveContact, {
      body: { data: { name: "Ada Lovelace", phoneNumber: "+15035550111" } },
    });
    expect(saved.success).toBe(true);
    // On one of its agents too.
    expect((await bearer(made.token, world.accounts.A1.id).call(api.getAccount)).account.id).toBe(
      world.accounts.A1.id,
    );
    // The query `token` works as well.
    expect((await testClient(app)(made.token).call(api.getAccount)).account.id).toBe(world.accounts.O1.id);

    const [listed] = await owner().call(api.listApiTokens);
    expect(listed).toMatchObject({ id: made.apiToken.id, token: made.apiToken.token, createdBy: "o1owner" });
    expect(listed?.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
  });

  it("reaches nothing outside its organisation, nothing above an admin, and no person's own calls", async () => {
    const made = await owner().call(api.createApiToken, { body: { description: "narrow" } });
    const { O2, R1, P1 } = world.accounts;
    for (const target of [O2, R1, P1])
      await expectRefusal(bearer(made.token, target.id).call(api.getAccount), 404);
    // A person's own calls: sessions, e-mail and phone, one-time sign-in links, more tokens.
    await expectRefusal(
      bearer(made.token).call(api.createApiToken, { body: {} }),
      403,
      api.TOKEN_MESSAGES.sessionOnly,
    );
    await expectRefusal(bearer(made.token).call(api.listApiTokens), 403, api.TOKEN_MESSAGES.sessionOnly);
    await expectRefusal(
      bearer(made.token).call(api.logout, { body: {} }),
      403,
      api.TOKEN_MESSAGES.sessionOnly,
    );
    await expectRefusal(
      bearer(made.token).call(api.createOneTimeAuth, {}),
      403,
      api.TOKEN_MESSAGES.sessionOnly,
    );
    // Made by a super admin for the organisation: still only an admin of it.
    const bySuperAdmin = await testClient(app)(world.members.superAdmin.token, world.accounts.O1.id).call(
      api.createApiToken,
      { body: { description: "support" } },
    );
    await expectRefusal(bearer(bySuperAdmin.token, O2.id).call(api.getAccount), 404);
    const me = await bearer(bySuperAdmin.token).call(api.getAccount);
    expect(me.account.id).toBe(world.accounts.O1.id);
    expect(me.permissions?.canDeleteOrg ?? false).toBe(false);
  });

  it("a read-only token reads and refuses changes", async () => {
    const made = await owner().call(api.createApiToken, {
      body: { description: "reports", type: "readOnly" },
    });
    expect((await bearer(made.token).call(api.listContacts, { query: {} })).success).toBe(true);
    await expectRefusal(
      bearer(made.token).call(api.saveContact, { body: { data: { name: "Nope" } } }),
      403,
      api.TOKEN_MESSAGES.readOnly,
    );
  });

  it("a revoked token answers 401 at once; another organisation cannot revoke it", async () => {
    const made = await owner().call(api.createApiToken, { body: { description: "short-lived" } });
    expect((await bearer(made.token).call(api.getAccount)).account.id).toBe(world.accounts.O1.id);
    await expectRefusal(
      testClient(app)(world.members.o2Owner.token).call(api.deleteApiToken, {
        body: { id: made.apiToken.id },
      }),
      404,
    );
    await owner().call(api.deleteApiToken, { body: { id: made.apiToken.id } });
    await expectRefusal(bearer(made.token).call(api.getAccount), 401, "Could not authenticate with token");
    expect((await owner().call(api.listApiTokens)).map((t) => t.id)).not.toContain(made.apiToken.id);
  });

  it("an admin of the organisation may manage its tokens; a partner's own account has none", async () => {
    const byAdmin = await testClient(app)(world.members.o1Admin.token).call(api.createApiToken, {
      body: { description: "admin's" },
    });
    expect(byAdmin.apiToken.createdBy).toBe("o1admin");
    await expectRefusal(
      testClient(app)(world.members.p1Owner.token).call(api.createApiToken, { body: {} }),
      400,
      api.TOKEN_MESSAGES.noOrganization,
    );
  });
});
