import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { runtimeUsage } from "../../db/schema/index.ts";

// The product path: the app's own sweep (every USAGE_DEBIT_INTERVAL_SECONDS) debits the wallet by the same
// pricing the usage statistics show.

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;

beforeAll(async () => {
  app = await buildTestApp({ USAGE_DEBIT_INTERVAL_SECONDS: "1" });
  world = await buildHierarchy(app);
  client = testClient(app);
});
afterAll(async () => {
  await app.close();
});

describe("usage debits in the app", () => {
  it("the sweep charges what stats/usage shows, and the wallet lists it", async () => {
    const { O1 } = world.accounts;
    const owner = client(world.members.o1Owner.token);
    const ledger = app.wallet.ledger;
    await ledger.post({
      idempotencyKey: "usage-module-test-topup",
      kind: "topup.card",
      ownerAccountId: O1.id,
      description: "Card top-up (test)",
      postings: [
        { account: ledger.platform("cash:card"), amount: -2000 },
        { account: ledger.wallet(O1.id), amount: 2000 },
      ],
    });
    await app.context.database.db.insert(runtimeUsage).values({
      orgId: O1.id,
      channel: "sms",
      provider: "sandbox",
      model: "s",
      messagesIn: 61,
      messagesOut: 61,
      createdAt: new Date(),
    });
    const shown = await owner.call(api.getUsageStats, { query: { billingPeriod: "current" } });
    expect(shown.plan).toBe("Free");
    expect(shown.costs?.["outbound-message"]).toBe(0.33); // 11 texts beyond the 50 included, at 3 cents
    expect(shown.totalCost).toBe(0.33);
    expect(shown.debitedCents).toBe(0);

    let wallet = await owner.call(api.getRecentTransactions);
    for (let i = 0; i < 100 && wallet.balance.availableCents === 2000; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      wallet = await owner.call(api.getRecentTransactions);
    }
    expect(wallet.balance).toEqual({ availableCents: 1967, heldCents: 0, owedCents: 0, currency: "usd" });
    expect(wallet.transactions[0]).toMatchObject({
      kind: "usage",
      description: "Usage: 61 texts sent, 61 texts received",
      amountCents: -33,
    });
    const after = await owner.call(api.getUsageStats, { query: { billingPeriod: "current" } });
    expect(after.debitedCents).toBe(Math.round((after.totalCost ?? 0) * 100));
    const audit = await ledger.audit();
    for (const sum of Object.values(audit.sums)) expect(sum).toBe(0);
  });
});
