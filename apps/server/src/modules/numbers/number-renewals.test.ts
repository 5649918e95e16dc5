import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { buildHierarchy, putOnPlan } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { phoneNumbers } from "../../db/schema/index.ts";
import { createKeyedGate } from "../../http/keyed-gate.ts";
import { createLedgerService } from "../ledger/ledger.service.ts";
import { createUsageRepository } from "../usage/usage.repository.ts";
import { monthsAfter, nextRenewal } from "./number-plan.ts";
import { createNumberRenewals } from "./number-renewals.ts";
import { createNumbersRepository } from "./numbers.repository.ts";

/**
 * Monthly renewals of phone numbers (issue 32): the renewals job, driven here with its clock moved on,
 * charges each number above the plan's included ones its monthly price on its own renewal day, once; a
 * short wallet leaves the number past due (the owners are told), a top-up pays it, and a number unpaid 7
 * days after its renewal is released.
 */

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  // The app's own renewals job runs every second (the interval of the wallet's sweeps).
  app = await buildTestApp({ USAGE_DEBIT_INTERVAL_SECONDS: "1" });
  world = await buildHierarchy(app);
}, within(60_000));
afterAll(async () => {
  await app?.close();
});

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const o1 = () => testClient(app)(world.members.o1Owner.token, world.accounts.O1.id);
const o2 = () => testClient(app)(world.members.o2Owner.token, world.accounts.O2.id);
const ledger = () => app.wallet.ledger;
const renewDue = (at: number) => app.numbers.renewals.renewDue(at);
/** The renewals of a second server on the same database: its own money gate and ledger instance. */
const secondServer = () => {
  const db = app.context.database.db;
  return createNumberRenewals({
    db,
    repo: createNumbersRepository(db),
    provider: app.numbers.provider,
    ledger: createLedgerService(db),
    money: createKeyedGate({ concurrency: 1, queue: 50, waitMs: 10_000 }),
    planOf: (orgId) => createUsageRepository(db).planOf(orgId),
    notifyOnce: async () => false,
    email: null,
    ownerEmails: async () => [],
    log: app.log,
  });
};
const day = (ms: number) =>
  new Date(ms).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

const move = (orgId: number, cents: number, kind: string) =>
  ledger().post({
    idempotencyKey: `test-${kind}:${orgId}:${Math.random()}`,
    kind,
    ownerAccountId: orgId,
    postings: [
      { account: ledger().platform("cash:card"), amount: -cents },
      { account: ledger().wallet(orgId), amount: cents },
    ],
  });
const topUp = (orgId: number, cents: number) => move(orgId, cents, "topup.card");
const spend = (orgId: number, cents: number) => move(orgId, -cents, "test.spend");
const available = async (orgId: number) => (await ledger().balances(orgId)).usd.available;

async function take(client: ReturnType<typeof o1>, prefix: string, agentId: number) {
  const { numbers } = await client.call(api.searchNumbersByPrefix, { body: { prefix, limit: 1 } });
  const found = numbers[0];
  if (!found) throw new Error(`no number found for ${prefix}`);
  await client.call(api.assignPhoneNumber, { body: { number: found.number, agentId } });
  return found.number;
}

async function listed(client: ReturnType<typeof o1>, number: string) {
  const found = (await client.call(api.listPhoneNumbers)).numbers.find((n) => n.number === number);
  if (!found?.billing) throw new Error(`${number} is not listed with its billing`);
  return { ...found, billing: found.billing };
}

const titles = async (client: ReturnType<typeof o1>) =>
  (await client.call(api.listNotifications, { query: { limit: 100 } })).notifications.map((n) => n.title);

describe("numbers on Pro: one included, then $3.00 a month", () => {
  const O1 = () => world.accounts.O1.id;
  let included: string;
  let extra: string;

  beforeAll(async () => {
    await putOnPlan(app, O1(), "Pro");
    await topUp(O1(), 300);
    included = await take(o1(), "503", world.accounts.A1.id);
    extra = await take(o1(), "303", world.accounts.A1.id);
    expect(await available(O1())).toBe(0);
  });

  it("lists each number's monthly price and renewal day", async () => {
    const first = await listed(o1(), included);
    const second = await listed(o1(), extra);
    expect(first.billing).toEqual({
      monthlyPriceCents: 0,
      renewsAt: monthsAfter(new Date(first.createdAt), 1).getTime(),
      pastDue: null,
    });
    expect(second.billing).toEqual({
      monthlyPriceCents: 300,
      renewsAt: monthsAfter(new Date(second.createdAt), 1).getTime(),
      pastDue: null,
    });
  });

  it("charges the extra number once on its renewal day, however often the job runs; the included one is free", async () => {
    await topUp(O1(), 1000);
    const before = await listed(o1(), extra);
    const renewal = before.billing.renewsAt;
    // Not due yet: nothing happens the minute before.
    expect(await renewDue(renewal - MINUTE)).toMatchObject({ charged: 0 });
    expect(await available(O1())).toBe(1000);

    // Two servers run the job at the same moment: one of them charges the month.
    const both = await Promise.all([renewDue(renewal + MINUTE), secondServer().renewDue(renewal + MINUTE)]);
    expect(both.map((o) => o.charged).sort()).toEqual([0, 1]);
    expect(both.reduce((sum, o) => sum + o.chargedCents, 0)).toBe(300);
    expect(await available(O1())).toBe(700);
    // A rerun (a restart) charges nothing more for the month.
    expect(await renewDue(renewal + 2 * MINUTE)).toMatchObject({ charged: 0 });
    expect(await renewDue(renewal + 2 * MINUTE)).toMatchObject({ charged: 0 });
    expect(await available(O1())).toBe(700);

    const after = await listed(o1(), extra);
    const next = monthsAfter(new Date(after.createdAt), 2).getTime();
    expect(after.billing.renewsAt).toBe(next);
    expect((await listed(o1(), included)).billing.renewsAt).toBe(
      monthsAfter(new Date((await listed(o1(), included)).createdAt), 2).getTime(),
    );
    const wallet = await o1().call(api.getRecentTransactions, { query: {} });
    const charges = wallet.transactions.filter((t) => t.description.includes("month from"));
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ kind: "number", amountCents: -300 });
    expect(charges[0]?.description).toBe(
      `Phone number ${extra}, month from ${day(renewal)} to ${day(next)} (Pro plan, number 2: $3.00 a month)`,
    );
    const audit = await ledger().audit();
    for (const sum of Object.values(audit.sums)) expect(sum).toBe(0);
  });

  it("a wallet short at renewal leaves the number past due and tells the owners once; a top-up pays it", async () => {
    await spend(O1(), 600);
    const renewal = (await listed(o1(), extra)).billing.renewsAt;
    expect(await renewDue(renewal + MINUTE)).toMatchObject({ charged: 0, pastDue: 1, released: 0 });
    expect(await available(O1())).toBe(100);
    const due = await listed(o1(), extra);
    expect(due.billing).toEqual({
      monthlyPriceCents: 300,
      renewsAt: renewal,
      pastDue: { since: renewal, amountCents: 300, releaseAt: renewal + 7 * DAY },
    });
    const title = `Phone number ${extra} is past due`;
    expect(await titles(o1())).toContain(title);
    const outbox = await o1().call(api.devOutbox, { query: { limit: 50 } });
    const mail = outbox.messages.find((m) => m.to === world.members.o1Owner.email && m.subject === title);
    expect(mail?.body).toContain(`Add funds by ${day(renewal + 7 * DAY)}`);
    // The next runs while it stays unpaid tell nobody again.
    await renewDue(renewal + DAY);
    expect((await titles(o1())).filter((t) => t === title)).toHaveLength(1);

    await topUp(O1(), 500);
    expect(await renewDue(renewal + 2 * DAY)).toMatchObject({ charged: 1, chargedCents: 300 });
    expect(await available(O1())).toBe(300);
    const paid = await listed(o1(), extra);
    // Paid late, it keeps its renewal day.
    expect(paid.billing).toMatchObject({
      pastDue: null,
      renewsAt: nextRenewal(new Date(paid.createdAt), new Date(renewal)).getTime(),
    });
  });

  it("unpaid 7 days after its renewal, the number is released and the owners are told", async () => {
    await spend(O1(), 300);
    const renewal = (await listed(o1(), extra)).billing.renewsAt;
    expect(await renewDue(renewal + MINUTE)).toMatchObject({ pastDue: 1 });
    expect(await renewDue(renewal + 7 * DAY - MINUTE)).toMatchObject({ released: 0 });
    expect((await listed(o1(), extra)).billing.pastDue).not.toBeNull();

    expect(await renewDue(renewal + 7 * DAY + MINUTE)).toMatchObject({ released: 1, charged: 0 });
    const numbers = (await o1().call(api.listPhoneNumbers)).numbers.map((n) => n.number);
    expect(numbers).toEqual([included]);
    expect(await titles(o1())).toContain(`Phone number ${extra} was released`);
    expect(await available(O1())).toBe(0);
    // For sale again.
    const again = await o1().call(api.searchNumbersByPrefix, { body: { prefix: "303", limit: 20 } });
    expect(again.numbers.map((n) => n.number)).toContain(extra);
  });
});

describe("a plan change", () => {
  const O2 = () => world.accounts.O2.id;
  let first: string;
  let second: string;

  it("Business includes both numbers: renewals charge nothing", async () => {
    await putOnPlan(app, O2(), "Business");
    first = await take(o2(), "503", world.accounts.A2.id);
    second = await take(o2(), "303", world.accounts.A2.id);
    await topUp(O2(), 1000);
    const renewal = (await listed(o2(), second)).billing.renewsAt;
    expect((await listed(o2(), second)).billing.monthlyPriceCents).toBe(0);
    expect(await renewDue(renewal + MINUTE)).toMatchObject({ charged: 0, pastDue: 0 });
    expect(await available(O2())).toBe(1000);
    expect((await listed(o2(), second)).billing.renewsAt).toBeGreaterThan(renewal);
  });

  it("down to Pro, the second number is charged from its next renewal", async () => {
    await o2().call(api.cancelSubscription, { body: { reason: "", details: "" } });
    await putOnPlan(app, O2(), "Pro");
    const listedSecond = await listed(o2(), second);
    expect(listedSecond.billing.monthlyPriceCents).toBe(300);
    expect((await listed(o2(), first)).billing.monthlyPriceCents).toBe(0);
    // Nothing is charged before its renewal day.
    expect(await available(O2())).toBe(1000);
    expect(await renewDue(listedSecond.billing.renewsAt + MINUTE)).toMatchObject({
      charged: 1,
      chargedCents: 300,
    });
    expect(await available(O2())).toBe(700);
  });

  it("down to Free, which allows no numbers: both are past due with the way to upgrade", async () => {
    await o2().call(api.cancelSubscription, { body: { reason: "", details: "" } });
    const renewal = (await listed(o2(), second)).billing.renewsAt;
    expect((await listed(o2(), second)).billing.monthlyPriceCents).toBeNull();
    expect(await renewDue(renewal + MINUTE)).toMatchObject({ charged: 0, pastDue: 2 });
    expect((await listed(o2(), second)).billing.pastDue).toMatchObject({ amountCents: 0 });
    expect(await available(O2())).toBe(700);
  });
});

describe("the renewals job of the app", () => {
  it(
    "charges a number whose renewal day came, on its own",
    async () => {
      const O1 = world.accounts.O1.id;
      await topUp(O1, 600 - (await available(O1)));
      const extra = await take(o1(), "971", world.accounts.A1.id);
      expect(await available(O1)).toBe(300);
      // Its renewal day is now (as if it was taken a month ago): the job's next run charges it.
      const due = new Date(Date.now() - MINUTE);
      await app.context.database.db
        .update(phoneNumbers)
        .set({ paidThrough: due })
        .where(eq(phoneNumbers.number, extra));
      const until = Date.now() + 20_000;
      while ((await available(O1)) !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(await available(O1)).toBe(0);
      const row = await listed(o1(), extra);
      expect(row.billing).toMatchObject({ monthlyPriceCents: 300, pastDue: null });
      expect(row.billing.renewsAt).toBe(nextRenewal(new Date(row.createdAt), due).getTime());
    },
    within(30_000),
  );
});
