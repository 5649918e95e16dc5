import { USAGE_BUCKETS, type UsageBuckets } from "@switchboard/core";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import type { EmailProvider } from "../../providers/email/email-provider.ts";
import { InsufficientFundsError, type LedgerService, type PostingInput } from "../ledger/index.ts";
import { type NewNotification, noticeToOwners } from "../notifications/index.ts";
import { billingPeriod } from "./billing-period.ts";
import { MICROS_PER_CENT, priceUsage, pricingOf } from "./pricing.ts";
import { createUsageRepository, type UsageDebitRow, type UsageRepository } from "./usage.repository.ts";

/**
 * Usage debits (issue 21): the periodic sweep charges each organisation's wallet for its metered usage.
 *
 * Per organisation and billing period the cost is priced cumulatively — `priceUsage` (the same function the
 * usage statistics show) over the period's usage so far, less the usage from before debits began — and
 * the whole cents of it not yet charged are posted: wallet -> platform usage revenue. The fraction of a cent
 * waits for the next sweep (it is part of the next cumulative price), and at a period's end what is left
 * below a cent is carried into the next period, so no cent is rounded away.
 *
 * Exactly once: each posting's idempotency key is `usage:<org>:<seq>` from the organisation's cursor, and the
 * cursor moves in the posting's own transaction only from the `seq` it was read at. A rerun, a retried job
 * or a second instance reading the same cursor makes the same key: the ledger answers the first posting and
 * writes nothing; one that read an older cursor fails to move it and starts over.
 *
 * Short funds: the wallet never goes below zero (the ledger's floor). What the wallet cannot pay is posted
 * in the same transaction to the organisation's `receivable` account (negative: owed), still as usage
 * revenue, so every transaction sums to zero; the next sweeps pay what is owed from the wallet as soon as it
 * has funds (`usage.owed`), before anything else is charged. Service does not stop when funds are short.
 *
 * Low balance: a posting that takes the wallet from at or above the threshold to below it notifies the
 * organisation once for that crossing (the bell, and an e-mail to its owners).
 */
export type UsageDebitsDeps = {
  db: Database;
  ledger: LedgerService;
  repo?: UsageRepository;
  notifyOnce: (orgId: number, input: NewNotification & { groupKey: string }) => Promise<boolean>;
  email: EmailProvider | null;
  lowBalanceCents: number;
  log: FastifyBaseLogger;
  now?: () => number;
};

/** Another sweep moved the cursor first: read it again. */
class CursorMoved extends Error {}

const ATTEMPTS = 5;

const zero = (): UsageBuckets => ({
  number: 0,
  tokens: 0,
  voice: 0,
  advancedVoice: 0,
  "outbound-message": 0,
  "inbound-message": 0,
});

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "Usage: 3 call minutes, 12 texts sent, 2 texts received, 4,210 model tokens". */
export function usageDescription(delta: UsageBuckets): string {
  const parts: string[] = [];
  if (delta.voice > 0) parts.push(plural(delta.voice, "call minute", "call minutes"));
  if (delta.advancedVoice > 0)
    parts.push(plural(delta.advancedVoice, "advanced call minute", "advanced call minutes"));
  if (delta["outbound-message"] > 0) parts.push(plural(delta["outbound-message"], "text sent", "texts sent"));
  if (delta["inbound-message"] > 0)
    parts.push(plural(delta["inbound-message"], "text received", "texts received"));
  if (delta.tokens > 0) parts.push(plural(delta.tokens, "model token", "model tokens"));
  if (delta.number > 0) parts.push(plural(delta.number, "phone number", "phone numbers"));
  return `Usage: ${parts.length > 0 ? parts.join(", ") : "the rest of the billing period"}`;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export type DebitOutcome = {
  /** Postings written by this run (a replay or nothing due: 0). */
  postings: number;
  /** Cents charged for usage by this run (paid and owed). */
  chargedCents: number;
};

export function createUsageDebits(deps: UsageDebitsDeps) {
  const repo = deps.repo ?? createUsageRepository(deps.db);
  const { ledger } = deps;
  const now = deps.now ?? Date.now;

  const readCharged = (row: UsageDebitRow | null): UsageBuckets => {
    const out = zero();
    for (const bucket of USAGE_BUCKETS) out[bucket] = Number(row?.charged?.[bucket] ?? 0);
    return out;
  };

  /** One posting of the sweep at the cursor's `seq`; false when the cursor moved meanwhile. */
  async function post(
    orgId: number,
    cursor: UsageDebitRow | null,
    input: {
      kind: "usage" | "usage.owed";
      description: string;
      postings: PostingInput[];
      metadata: Record<string, unknown>;
      next: Parameters<UsageRepository["advance"]>[3];
    },
  ) {
    const seq = cursor?.seq ?? 0;
    const key = `usage:${orgId}:${seq}`;
    const result = await ledger.post({
      idempotencyKey: key,
      kind: input.kind,
      ownerAccountId: orgId,
      description: input.description,
      metadata: input.metadata,
      postings: input.postings,
      within: async (tx) => {
        if (!(await repo.advance(tx, orgId, seq, input.next))) throw new CursorMoved();
      },
    });
    return { key, replayed: result.replayed };
  }

  async function lowBalance(orgId: number, key: string, before: number, after: number) {
    if (!(before >= deps.lowBalanceCents && after < deps.lowBalanceCents)) return;
    const notice = {
      kind: "lowBalance" as const,
      title: "Your wallet balance is low",
      body: `${dollars(after)} left after usage charges (below ${dollars(deps.lowBalanceCents)}). Add funds to keep paying for calls and texts from the wallet.`,
      link: "/app/wallet",
      groupKey: `lowBalance:${key}`,
    };
    await noticeToOwners({ ...deps, ownerEmails: repo.ownerEmails }, orgId, notice, "your wallet");
  }

  /** Pays usage owed from the wallet's funds; true when it posted (or another sweep moved the cursor). */
  async function payOwed(orgId: number, cursor: UsageDebitRow): Promise<boolean> {
    const kept = await ledger.balances(orgId);
    const owed = -kept.usd.receivable;
    const pay = Math.min(owed, kept.usd.available);
    if (owed <= 0 || pay <= 0 || !cursor.periodStart) return false;
    const { key, replayed } = await post(orgId, cursor, {
      kind: "usage.owed",
      description: `Usage owed, paid from the wallet (${dollars(owed - pay)} still owed)`,
      postings: [
        { account: ledger.wallet(orgId), amount: -pay },
        { account: ledger.receivable(orgId), amount: pay },
      ],
      metadata: { owedCents: owed, paidCents: pay },
      next: {
        periodStart: cursor.periodStart,
        seq: cursor.seq + 1,
        debitedCents: cursor.debitedCents,
        charged: readCharged(cursor),
        carryMicros: cursor.carryMicros,
      },
    });
    if (!replayed) await lowBalance(orgId, key, kept.usd.available, kept.usd.available - pay);
    return true;
  }

  /** One step for an organisation: 'again' when it posted or lost a race (take another step), else 'done'. */
  async function step(
    orgId: number,
    at: number,
  ): Promise<{ again: boolean; chargedCents: number; posted: boolean }> {
    const org = await repo.organization(orgId);
    if (!org) return { again: false, chargedCents: 0, posted: false };
    const cursor = await repo.cursor(orgId);
    // What is owed is paid first, before anything new is charged.
    if (cursor && (await payOwed(orgId, cursor))) return { again: true, chargedCents: 0, posted: true };

    const current = billingPeriod(org.billingAnchor, at, "current");
    const cursorStart = cursor?.periodStart?.getTime() ?? null;
    // A period the cursor is still in, that has ended: charged in full, then the cursor moves to the next.
    // When the anchor moved (a plan started mid-period), the cursor's period ends where the current begins:
    // none of its usage is charged twice or left out.
    const closing = cursorStart !== null && cursorStart < current.start;
    const period = closing
      ? (() => {
          const { end } = billingPeriod(org.billingAnchor, cursorStart, "current");
          return { start: cursorStart, end: Math.min(end, current.start - 1) };
        })()
      : current;
    // (A cursor ahead of the period, had the anchor moved, keeps what it charged: never charged twice.)
    const samePeriod = cursorStart !== null && cursorStart >= period.start;
    const pricing = pricingOf(await repo.planOf(orgId));
    const usage = await repo.totals(orgId, period.start, period.end);
    const chargeFrom = cursor?.chargeFrom?.getTime() ?? null;
    const waived =
      chargeFrom !== null && chargeFrom > period.start
        ? await repo.totals(orgId, period.start, Math.min(chargeFrom - 1, period.end))
        : zero();
    const carry = samePeriod ? (cursor?.carryMicros ?? 0) : 0;
    const costMicros =
      Math.max(0, priceUsage(pricing, usage).total - priceUsage(pricing, waived).total) + carry;
    const debitedCents = samePeriod ? (cursor?.debitedCents ?? 0) : 0;
    const due = Math.max(0, Math.floor(costMicros / MICROS_PER_CENT) - debitedCents);
    const charged = samePeriod ? readCharged(cursor) : waived;
    const delta = zero();
    for (const bucket of USAGE_BUCKETS) delta[bucket] = Math.max(0, usage[bucket] - charged[bucket]);
    const seq = cursor?.seq ?? 0;
    const next = closing
      ? {
          periodStart: new Date(period.end + 1),
          seq: seq + 1,
          debitedCents: 0,
          charged: zero(),
          carryMicros: Math.max(0, costMicros - (debitedCents + due) * MICROS_PER_CENT),
        }
      : {
          periodStart: new Date(period.start),
          seq: seq + 1,
          debitedCents: debitedCents + due,
          charged: usage,
          carryMicros: carry,
        };

    if (due === 0) {
      // Nothing to post: only a new cursor (the first sweep, or a period's end) is written.
      if (!closing && samePeriod) return { again: false, chargedCents: 0, posted: false };
      // The quantities not yet described stay for the next posting's description.
      const kept = closing ? next : { ...next, charged };
      // Moved by another sweep meanwhile, or by this one: either way the next step reads it again.
      await deps.db.transaction((tx) => repo.advance(tx, orgId, seq, kept));
      return { again: true, chargedCents: 0, posted: false };
    }

    const available = (await ledger.balances(orgId)).usd.available;
    const paid = Math.min(available, due);
    const owed = due - paid;
    const postings: PostingInput[] = [{ account: ledger.platform("revenue:usage"), amount: due }];
    if (paid > 0) postings.push({ account: ledger.wallet(orgId), amount: -paid });
    if (owed > 0) postings.push({ account: ledger.receivable(orgId), amount: -owed });
    const { key, replayed } = await post(orgId, cursor, {
      kind: "usage",
      description:
        usageDescription(delta) + (owed > 0 ? ` (${dollars(owed)} owed: the wallet was short)` : ""),
      postings,
      metadata: {
        periodStart: new Date(period.start).toISOString(),
        plan: pricing.planName,
        usage: delta,
        periodUsage: usage,
        costMicros,
        paidCents: paid,
        owedCents: owed,
      },
      next,
    });
    if (!replayed) await lowBalance(orgId, key, available, available - paid);
    return { again: true, chargedCents: replayed ? 0 : due, posted: !replayed };
  }

  /**
   * Charges an organisation for its usage not yet debited (and pays what it owes from its wallet), until
   * nothing is left to post. Safe to run any number of times, anywhere, at once.
   */
  async function debitOrganization(orgId: number): Promise<DebitOutcome> {
    const outcome: DebitOutcome = { postings: 0, chargedCents: 0 };
    let failures = 0;
    for (let steps = 0; steps < 20; steps++) {
      try {
        const result = await step(orgId, now());
        outcome.chargedCents += result.chargedCents;
        if (result.posted) outcome.postings += 1;
        if (!result.again) return outcome;
      } catch (error) {
        // Another sweep moved the cursor, or a withdrawal took the funds meanwhile: read them again.
        if (!(error instanceof CursorMoved || error instanceof InsufficientFundsError)) throw error;
        if (++failures >= ATTEMPTS) throw error;
      }
    }
    return outcome;
  }

  /** The organisations a sweep charges: usage in the last two periods' time, or usage owed. */
  function organizationsToSweep(): Promise<number[]> {
    return repo.organizationsToSweep(now() - 62 * 24 * 3600_000);
  }

  return { debitOrganization, organizationsToSweep, repo };
}

export type UsageDebits = ReturnType<typeof createUsageDebits>;
