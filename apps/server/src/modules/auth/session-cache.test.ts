import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, outcome, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts, authTokens, memberships } from "../../db/schema/index.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
});
afterAll(async () => {
  await app.close();
});

/** Calls until the answer's status is `status` (a change made elsewhere arrives as a notice), or 3 s pass. */
async function statusBecomes(token: string, status: number) {
  const end = Date.now() + 3000;
  for (;;) {
    const res = await outcome(client(token).call(api.listConversations));
    if (res.status === status || Date.now() > end) return res;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Sessions are kept in memory between calls; what another instance (or a script) changes in the database
// must still end them everywhere, told by the database's notices.
describe("a session changed outside this instance", () => {
  it("stops working once its token is revoked", async () => {
    const { token, userId } = world.members.o1Owner;
    await client(token).call(api.listConversations);
    await client(token).call(api.listConversations);
    await app.context.database.db
      .update(authTokens)
      .set({ revokedAt: new Date() })
      .where(eq(authTokens.userId, userId));
    const res = await statusBecomes(token, 401);
    expect(res.body).toEqual({ success: false, message: "Could not authenticate with token" });
  });

  it("stops working once the membership it signed in with is removed", async () => {
    const { token, userId } = world.members.o1Admin;
    await client(token).call(api.listConversations);
    await app.context.database.db.delete(memberships).where(eq(memberships.userId, userId));
    const res = await statusBecomes(token, 401);
    expect(res.body).toEqual({ success: false, message: "Could not authenticate with token" });
  });

  it("is refused once its account is disabled", async () => {
    const { token } = world.members.o2Owner;
    await client(token).call(api.listConversations);
    await app.context.database.db
      .update(accounts)
      .set({ disabledAt: new Date() })
      .where(eq(accounts.id, world.accounts.O2.id));
    const res = await statusBecomes(token, 403);
    expect(res.body).toEqual({ success: false, message: "This account is disabled." });
  });
});

describe("a session changed by this process", () => {
  it("is refused on the very next call, before the database's notice arrives", async () => {
    const { token, userId } = world.members.superAdmin;
    await client(token).call(api.getAccount);
    await app.context.database.db
      .update(authTokens)
      .set({ revokedAt: new Date() })
      .where(eq(authTokens.userId, userId));
    const refused = await expectRefusal(client(token).call(api.getAccount), 401);
    expect(refused.body).toEqual({ success: false, message: "Could not authenticate with token" });
  });
});
