import { randomUUID } from "node:crypto";
import type { UsageBuckets } from "@switchboard/core";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../test/helpers.ts";
import type { DatabaseHandle } from "../../db/client.ts";
import {
  accounts,
  conversationLogs,
  memberships,
  notifications,
  productPlans,
  runtimeUsage,
  subscriptions,
  users,
} from "../../db/schema/index.ts";
import type { EmailMessage } from "../../providers/email/email-provider.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import { createLedgerService, type LedgerService } from "../ledger/ledger.service.ts";
import { createNotificationsService } from "../notifications/notifications.service.ts";
import { billingPeriod } from "./billing-period.ts";
import { createUsageRepository } from "./usage.repository.ts";
import { createUsageDebits, usageDescription } from "./usage-debits.service.ts";

const DAY = 24 * 3600_000;
let database: DatabaseHandle;
let ledger: LedgerService;
const emails: EmailMessage[] = [];
const silent = { warn() {}, info() {}, error() {} } as unknown as FastifyBaseLogger;

beforeAll(async () => {
  database = await createTestDatabase();
  ledger = createLedgerService(database.db);
});
afterAll(async () => {
  await database.close();
});

/** One sweep worker, as one server instance has it (its own ledger service and caches). */
function debitsAt(now: () => number = Date.now) {
  const db = database.db;
  const service = createNotificationsService({
    db,
    realtime: { publish: async () => {} } as unknown as RealtimeHub,
  });
  return createUsageDebits({
    db,
    ledger: createLedgerService(db),
    notifyOnce: (orgId, input) => service.notifyOnce(orgId, input),
    email: { kind: "outbox", send: async (message) => void emails.push(message) },
    lowBalanceCents: 500,
    log: silent,
    now,
  });
}

let nextOrg = 0;
/** A new organisation (created 10 days ago: its billing period began then), with an owner. */
async function organization(createdAt = new Date(Date.now() - 10 * DAY)) {
  const db = database.db;
  nextOrg++;
  const [org] = await db
    .insert(accounts)
    .values({ accountType: "organization", username: `usage-org-${nextOrg}`, createdAt })
    .returning();
  if (!org) throw new Error("no org");
  const [user] = await db
    .insert(users)
    .values({ email: `owner-${nextOrg}@usage.example` })
    .returning();
  if (!user) throw new Error("no user");
  await db.insert(memberships).values({ userId: user.id, accountId: org.id, role: "owner" });
  return org.id;
}

async function texts(orgId: number, out: number, at = new Date(Date.now() - 3600_000)) {
  await database.db.insert(runtimeUsage).values({
    orgId,
    channel: "sms",
    provider: "sandbox",
    model: "s",
    messagesOut: out,
    messagesIn: 0,
    createdAt: at,
  });
}
async function tokens(orgId: number, total: number) {
  await database.db.insert(runtimeUsage).values({
    orgId,
    channel: "web",
    provider: "sandbox",
    model: "s",
    totalTokens: total,
    createdAt: new Date(Date.now() - 3600_000),
  });
}

const topUp = (orgId: number, cents: number) =>
  ledger.post({
    idempotencyKey: `test-topup:${orgId}:${Math.random()}`,
    kind: "topup.card",
    ownerAccountId: orgId,
    postings: [
      { account: ledger.platform("cash:card"), amount: -cents },
      { account: ledger.wallet(orgId), amount: cents },
    ],
  });

const usagePostings = async (orgId: number) =>
  (await ledger.recentTransactions(orgId, 50)).filter((t) => t.kind.startsWith("usage"));

async function expectWhole() {
  const audit = await ledger.audit();
  for (const sum of Object.values(audit.sums)) expect(sum).toBe(0);
  expect(audit.drifted).toEqual([]);
}

describe("usage debits", () => {
  it("charges the Free plan's texts beyond the 50 included, once: a rerun changes nothing", async () => {
    const orgId = await organization();
    await topUp(orgId, 1000);
    await texts(orgId, 60);
    const debits = debitsAt();
    expect(await debits.debitOrganization(orgId)).toEqual({ postings: 1, chargedCents: 30 });
    expect((await ledger.balances(orgId)).usd.available).toBe(970);
    const [posting] = await usagePostings(orgId);
    expect(posting?.description).toBe("Usage: 60 texts sent");
    expect(posting?.postings).toEqual([expect.objectContaining({ kind: "wallet", amount: -30 })]);
    // Again, and from another instance after a restart: nothing new.
    expect(await debits.debitOrganization(orgId)).toEqual({ postings: 0, chargedCents: 0 });
    expect(await debitsAt().debitOrganization(orgId)).toEqual({ postings: 0, chargedCents: 0 });
    expect(await usagePostings(orgId)).toHaveLength(1);
    // Two more texts: 6 cents, described as what came after the last debit.
    await texts(orgId, 2);
    await debits.debitOrganization(orgId);
    expect((await ledger.balances(orgId)).usd.available).toBe(964);
    expect((await usagePostings(orgId))[0]?.description).toBe("Usage: 2 texts sent");
    await expectWhole();
  });

  it("a plan started mid-period moves the periods: the old one closes where the new begins, nothing twice", async () => {
    // Created 45 days ago: its second period began about 15 days ago; texts 25 days ago (first period,
    // before the first sweep: never charged) and 10 days ago (second period: 10 beyond the 50 included).
    const orgId = await organization(new Date(Date.now() - 45 * DAY));
    await topUp(orgId, 1000);
    await texts(orgId, 60, new Date(Date.now() - 25 * DAY));
    await texts(orgId, 60, new Date(Date.now() - 10 * DAY));
    const debits = debitsAt();
    expect(await debits.debitOrganization(orgId)).toEqual({ postings: 1, chargedCents: 30 });
    // A plan started 5 days ago (and ended since, so prices stay the Free plan's): periods now start on
    // that day. The second period closes the day before; the texts of 25 days ago stay uncharged.
    const [free] = await database.db.select().from(productPlans).where(eq(productPlans.name, "Free"));
    await database.db.insert(subscriptions).values({
      orgId,
      productPlanId: free?.id as number,
      term: "month",
      status: "canceled",
      amountCents: 0,
      provider: "sandbox",
      checkoutId: `test-${orgId}`,
      currentPeriodStart: new Date(Date.now() - 5 * DAY),
      currentPeriodEnd: new Date(Date.now() + 25 * DAY),
      createdAt: new Date(Date.now() - 5 * DAY),
    });
    await texts(orgId, 60, new Date(Date.now() - 3600_000));
    expect(await debits.debitOrganization(orgId)).toEqual({ postings: 1, chargedCents: 30 });
    expect((await ledger.balances(orgId)).usd.available).toBe(940);
    const anchor = new Date(Date.now() - 5 * DAY);
    const cursor = await createUsageRepository(database.db).cursor(orgId);
    expect(cursor?.periodStart?.getTime()).toBe(billingPeriod(anchor, Date.now(), "current").start);
    await expectWhole();
  });

  it("two sweeps at once post one debit", async () => {
    const orgId = await organization();
    await topUp(orgId, 1000);
    await texts(orgId, 70);
    const outcomes = await Promise.all([
      debitsAt().debitOrganization(orgId),
      debitsAt().debitOrganization(orgId),
      debitsAt().debitOrganization(orgId),
    ]);
    expect(outcomes.reduce((sum, o) => sum + o.chargedCents, 0)).toBe(60);
    expect(await usagePostings(orgId)).toHaveLength(1);
    expect((await ledger.balances(orgId)).usd.available).toBe(940);
    await expectWhole();
  });

  it("carries the fraction of a cent: tokens debited in whole cents as they add up", async () => {
    const orgId = await organization();
    await topUp(orgId, 1000);
    const debits = debitsAt();
    await tokens(orgId, 200_400); // 200,000 included, then 1 cent per 1,000: 0.4 cent
    expect((await debits.debitOrganization(orgId)).chargedCents).toBe(0);
    await tokens(orgId, 300); // 0.7 cent
    expect((await debits.debitOrganization(orgId)).chargedCents).toBe(0);
    await tokens(orgId, 400); // 1.1 cents
    expect((await debits.debitOrganization(orgId)).chargedCents).toBe(1);
    await tokens(orgId, 900); // 2.0 cents
    expect((await debits.debitOrganization(orgId)).chargedCents).toBe(1);
    expect((await ledger.balances(orgId)).usd.available).toBe(998);
    const [last, first] = await usagePostings(orgId);
    expect(first?.description).toBe("Usage: 201,100 model tokens");
    expect(last?.description).toBe("Usage: 900 model tokens");
  });

  it("carries the remainder into the next billing period when the period closes", async () => {
    const created = new Date(Date.now() - 40 * DAY);
    const orgId = await organization(created);
    await topUp(orgId, 1000);
    const period = billingPeriod(created, Date.now(), "current");
    // 0.5 cent of tokens in the previous period, 0.7 cent in this one.
    await database.db.insert(runtimeUsage).values({
      orgId,
      channel: "web",
      provider: "sandbox",
      model: "s",
      totalTokens: 200_500,
      createdAt: new Date(period.start - 2 * DAY),
    });
    expect((await debitsAt(() => period.start - DAY).debitOrganization(orgId)).chargedCents).toBe(0);
    await tokens(orgId, 200_700);
    // The previous period closes with 0.5 cent left; it joins this period's 0.7: one cent.
    expect((await debitsAt().debitOrganization(orgId)).chargedCents).toBe(1);
    expect((await ledger.balances(orgId)).usd.available).toBe(999);
    await expectWhole();
  });

  it("prices voice minutes per call rounded up, by the plan's tiers", async () => {
    const orgId = await organization();
    await topUp(orgId, 5000);
    const base = { orgId, accountId: orgId, accountName: "x", timestamp: new Date(Date.now() - 3600_000) };
    await database.db.insert(conversationLogs).values([
      { ...base, uuid: randomUUID(), duration: 29 * 60 + 1, data: { channel: "voice" } }, // 30 minutes (included)
      { ...base, uuid: randomUUID(), duration: 90, data: { channel: "voice" } }, // 2 minutes: 40 cents
    ] as (typeof conversationLogs.$inferInsert)[]);
    expect((await debitsAt().debitOrganization(orgId)).chargedCents).toBe(40);
    expect((await usagePostings(orgId))[0]?.description).toBe("Usage: 32 call minutes");
  });

  it("counts each call's minutes once over whole days and partial ones, advanced calls apart", async () => {
    const orgId = await organization();
    const at = (iso: string) => Date.parse(iso);
    const call = (iso: string, duration: number, data: Record<string, unknown>, channel = "voice") => ({
      orgId,
      accountId: orgId,
      accountName: "x",
      uuid: randomUUID(),
      timestamp: new Date(iso),
      duration,
      channel,
      data,
    });
    await database.db.insert(conversationLogs).values([
      call("2026-03-01T23:30:00.000Z", 61, { channel: "voice" }), // before the window
      call("2026-03-02T10:00:00.000Z", 61, { channel: "voice" }), // partial first day: 2 minutes
      call("2026-03-03T00:00:00.000Z", 60, { channel: "voice" }), // whole day: 1
      call("2026-03-03T12:00:00.000Z", 125, { channel: "voice", voiceTier: "advanced" }), // advanced: 3
      call("2026-03-04T08:00:00.000Z", 1, { channel: "voice" }), // whole day: 1
      call("2026-03-04T09:00:00.000Z", 0, { channel: "voice" }), // unanswered: 0
      call("2026-03-04T10:00:00.000Z", 300, { channel: "sms" }, "sms"), // a text: not a call
      call("2026-03-05T05:00:00.000Z", 59, { channel: "voice", voiceTier: "advanced" }), // partial last day: 1
      call("2026-03-05T05:00:00.001Z", 600, { channel: "voice" }), // after the window
    ] as (typeof conversationLogs.$inferInsert)[]);
    const usage = createUsageRepository(database.db);
    const window = await usage.totals(orgId, at("2026-03-02T06:00:00.000Z"), at("2026-03-05T05:00:00.000Z"));
    expect({ voice: window.voice, advancedVoice: window.advancedVoice }).toEqual({
      voice: 4,
      advancedVoice: 4,
    });
    // Within one day (no whole day): the rows alone.
    const day = await usage.totals(orgId, at("2026-03-03T00:00:00.000Z"), at("2026-03-03T23:59:59.999Z"));
    expect({ voice: day.voice, advancedVoice: day.advancedVoice }).toEqual({ voice: 1, advancedVoice: 3 });
  });

  it("debits what the wallet has and records the rest as owed, paid from the next funds", async () => {
    const orgId = await organization();
    await topUp(orgId, 10);
    await texts(orgId, 60); // 30 cents
    const debits = debitsAt();
    await debits.debitOrganization(orgId);
    let kept = (await ledger.balances(orgId)).usd;
    expect(kept.available).toBe(0);
    expect(kept.receivable).toBe(-20);
    expect((await usagePostings(orgId))[0]?.description).toBe(
      "Usage: 60 texts sent ($0.20 owed: the wallet was short)",
    );
    await expectWhole();
    await topUp(orgId, 100);
    await debits.debitOrganization(orgId);
    kept = (await ledger.balances(orgId)).usd;
    expect(kept.available).toBe(80);
    expect(kept.receivable).toBe(0);
    const [paid] = await usagePostings(orgId);
    expect(paid?.kind).toBe("usage.owed");
    expect(paid?.description).toBe("Usage owed, paid from the wallet ($0.00 still owed)");
    await expectWhole();
  });

  it("notifies the owner once when a debit takes the balance below the threshold", async () => {
    const orgId = await organization();
    await topUp(orgId, 600);
    await texts(orgId, 90); // 40 texts beyond the 50: $1.20
    const debits = debitsAt();
    emails.length = 0;
    await debits.debitOrganization(orgId);
    await texts(orgId, 1);
    await debits.debitOrganization(orgId);
    const rows = await database.db.select().from(notifications).where(eq(notifications.orgId, orgId));
    expect(rows.map((r) => [r.kind, r.title, r.body, r.link])).toEqual([
      [
        "lowBalance",
        "Your wallet balance is low",
        "$4.80 left after usage charges (below $5.00). Add funds to keep paying for calls and texts from the wallet.",
        "/app/wallet",
      ],
    ]);
    expect(emails.map((e) => [e.to, e.subject])).toEqual([
      [`owner-${nextOrg}@usage.example`, "Your wallet balance is low"],
    ]);
    expect((await ledger.balances(orgId)).usd.available).toBe(477);
  });

  it("does not charge usage from before debits began, but it counts toward the tiers", async () => {
    const orgId = await organization();
    await topUp(orgId, 1000);
    await texts(orgId, 55, new Date(Date.now() - 2 * DAY));
    await debitsAt().repo.chargeFrom(orgId, new Date(Date.now() - DAY));
    await texts(orgId, 2);
    expect((await debitsAt().debitOrganization(orgId)).chargedCents).toBe(6);
    expect((await usagePostings(orgId))[0]?.description).toBe("Usage: 2 texts sent");
  });

  it("sweeps the organisations with recent usage or usage owed, and no others", async () => {
    const busy = await organization();
    await texts(busy, 1);
    const idle = await organization();
    const swept = await debitsAt().organizationsToSweep();
    expect(swept).toContain(busy);
    expect(swept).not.toContain(idle);
  });

  it("describes usage in words", () => {
    const none: UsageBuckets = {
      number: 0,
      tokens: 0,
      voice: 0,
      advancedVoice: 0,
      "outbound-message": 0,
      "inbound-message": 0,
    };
    expect(usageDescription({ ...none, voice: 1, "outbound-message": 12, "inbound-message": 1 })).toBe(
      "Usage: 1 call minute, 12 texts sent, 1 text received",
    );
    expect(usageDescription(none)).toBe("Usage: the rest of the billing period");
  });
});
