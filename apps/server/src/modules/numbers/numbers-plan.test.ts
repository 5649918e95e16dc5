import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, putOnPlan } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { termsForNumber } from "./number-plan.ts";

/**
 * Phone numbers follow the organisation's plan (issue 32): a plan without numbers (Free) gets none, by the
 * marketplace or brought; a plan's included numbers cost nothing; each number above them costs its tier's
 * monthly price, charged to the wallet when it is taken, and a wallet short of it gets no number.
 */

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
}, within(60_000));
afterAll(async () => {
  await app?.close();
});

const o1 = () => testClient(app)(world.members.o1Owner.token, world.accounts.O1.id);
const o2 = () => testClient(app)(world.members.o2Owner.token, world.accounts.O2.id);

/** A number bought from the marketplace and one brought in (over SIP) are both refused the same way. */
async function expectNewNumbersRefused(
  client: ReturnType<typeof o1>,
  numbers: { agentId: number; bought: string; brought: string },
  status: number,
  message: string,
) {
  const { agentId } = numbers;
  await expectRefusal(
    client.call(api.assignPhoneNumber, { body: { number: numbers.bought, agentId } }),
    status,
    message,
  );
  await expectRefusal(
    client.call(api.assignByoNumber, { body: { number: numbers.brought, method: "sip", agentId } }),
    status,
    message,
  );
}
const ledger = () => app.wallet.ledger;

const topUp = (orgId: number, cents: number) =>
  ledger().post({
    idempotencyKey: `test-topup:${orgId}:${Math.random()}`,
    kind: "topup.card",
    ownerAccountId: orgId,
    postings: [
      { account: ledger().platform("cash:card"), amount: -cents },
      { account: ledger().wallet(orgId), amount: cents },
    ],
  });

const firstFound = async (client: ReturnType<typeof o1>, prefix: string) => {
  const { numbers } = await client.call(api.searchNumbersByPrefix, { body: { prefix, limit: 1 } });
  const found = numbers[0];
  if (!found) throw new Error(`no number found for ${prefix}`);
  return found;
};

describe("the plan's number tiers", () => {
  const free = {
    name: "Free",
    productItems: {
      number: {
        type: "feature" as const,
        unit: "phone number",
        tiers: [{ quantityMin: 0, quantityMax: 0, unitPriceCents: 0 }],
      },
    },
  };
  const pro = {
    name: "Pro",
    productItems: {
      number: {
        type: "feature" as const,
        unit: "phone number",
        tiers: [
          { quantityMin: 0, quantityMax: 1, unitPriceCents: 0 },
          { quantityMin: 2, unitPriceCents: 300 },
        ],
      },
    },
  };

  it("Free allows none; Pro includes one, then $3.00 each; a capped plan stops at its cap", () => {
    expect(termsForNumber(free, 0)).toMatchObject({ allowed: false, reason: "noNumbers" });
    expect(termsForNumber(null, 0)).toMatchObject({ allowed: false, reason: "noNumbers" });
    expect(termsForNumber(pro, 0)).toEqual({ allowed: true, planName: "Pro", ordinal: 1, monthlyCents: 0 });
    expect(termsForNumber(pro, 1)).toEqual({ allowed: true, planName: "Pro", ordinal: 2, monthlyCents: 300 });
    expect(termsForNumber(pro, 9)).toMatchObject({ allowed: true, monthlyCents: 300 });
    const capped = {
      name: "Capped",
      productItems: {
        number: {
          type: "feature" as const,
          unit: "phone number",
          tiers: [{ quantityMin: 0, quantityMax: 2, unitPriceCents: 0 }],
        },
      },
    };
    expect(termsForNumber(capped, 2)).toMatchObject({ allowed: false, reason: "limit", limit: 2 });
  });
});

describe("numbers on the Free plan", () => {
  it("are refused with the way to upgrade, by search, purchase and bring-your-own; nothing is kept", async () => {
    await expectRefusal(
      o2().call(api.searchNumbersByPrefix, { body: { prefix: "503" } }),
      403,
      api.NUMBER_MESSAGES.planNoNumbers,
    );
    await expectNewNumbersRefused(
      o2(),
      { agentId: world.accounts.A2.id, bought: "+15035550123", brought: "+15415550177" },
      403,
      api.NUMBER_MESSAGES.planNoNumbers,
    );
    expect((await o2().call(api.listPhoneNumbers)).numbers).toEqual([]);
    expect(api.NUMBER_MESSAGES.planNoNumbers).toContain("Upgrade to a plan that includes phone numbers");
  });
});

describe("numbers on the Pro plan", () => {
  let first: string;

  beforeAll(async () => {
    await putOnPlan(app, world.accounts.O1.id, "Pro");
  });

  it("the included number is offered at $0 and costs the wallet nothing", async () => {
    const offered = await firstFound(o1(), "503");
    expect(offered.monthlyPriceCents).toBe(0);
    first = offered.number;
    await o1().call(api.assignPhoneNumber, { body: { number: first, agentId: world.accounts.A1.id } });
    expect((await o1().call(api.listPhoneNumbers)).numbers.map((n) => n.number)).toEqual([first]);
    const kept = await ledger().balances(world.accounts.O1.id);
    expect(kept.usd.available).toBe(0);
    expect(await ledger().recentTransactions(world.accounts.O1.id, 10)).toEqual([]);
  });

  it("a second number costs $3.00 a month: refused while the wallet is empty, nothing provisioned", async () => {
    const offered = await firstFound(o1(), "303");
    expect(offered.monthlyPriceCents).toBe(300);
    await expectNewNumbersRefused(
      o1(),
      { agentId: world.accounts.A1.id, bought: offered.number, brought: "+15415550199" },
      402,
      api.NUMBER_MESSAGES.walletShort,
    );
    expect((await o1().call(api.listPhoneNumbers)).numbers.map((n) => n.number)).toEqual([first]);
    // Still for sale: the refused purchase did not keep it.
    const again = await o1().call(api.searchNumbersByPrefix, { body: { prefix: "303", limit: 20 } });
    expect(again.numbers.map((n) => n.number)).toContain(offered.number);
  });

  it("with funds, the second number's month is charged to the wallet and listed there", async () => {
    await topUp(world.accounts.O1.id, 500);
    const offered = await firstFound(o1(), "303");
    const answer = await o1().call(api.assignPhoneNumber, {
      body: { number: offered.number, agentId: world.accounts.A1.id },
    });
    expect(answer.phoneNumber.number).toBe(offered.number);
    expect((await ledger().balances(world.accounts.O1.id)).usd.available).toBe(200);
    const wallet = await o1().call(api.getRecentTransactions, { query: {} });
    expect(wallet.balance.availableCents).toBe(200);
    expect(wallet.transactions[0]).toMatchObject({ kind: "number", amountCents: -300 });
    expect(wallet.transactions[0]?.description).toBe(
      `Phone number ${offered.number}, first month (Pro plan, number 2: $3.00 a month)`,
    );
    const audit = await ledger().audit();
    for (const sum of Object.values(audit.sums)) expect(sum).toBe(0);
  });

  it("moving a number the organisation holds to another agent charges nothing", async () => {
    const before = (await ledger().balances(world.accounts.O1.id)).usd.available;
    const moved = await o1().call(api.assignPhoneNumber, {
      body: { number: first, agentId: world.accounts.A1.id },
    });
    expect(moved.phoneNumber.number).toBe(first);
    expect((await ledger().balances(world.accounts.O1.id)).usd.available).toBe(before);
  });
});
