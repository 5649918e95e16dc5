import { createHash, randomUUID } from "node:crypto";
import { REFERRAL_MESSAGES, REFERRAL_PARAM } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { Access, AccountRow } from "../../access/access.ts";
import { ApiError, conflict, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { isDatabaseBusy } from "../../http/error-handler.ts";
import type { KeyedGate } from "../../http/keyed-gate.ts";
import type { LedgerService } from "../ledger/index.ts";
import { walletOwnerOf } from "../wallet/index.ts";
import { createReferralsRepository } from "./referrals.repository.ts";

/** The kinds of ledger payment that earn a reward: a plan (and its renewals), card and lightning top-ups. */
export const REWARDED_PAYMENTS = new Set(["subscription", "topup.card", "topup.lightning"]);

/** A refund without a client's key repeats one of the same admin, wallet and amount this recent. */
const KEYLESS_REPEAT_MS = 60_000;

/** Thrown in a keyless refund's transaction when it repeats an earlier one: rolls it back. */
class RepeatedRefund extends Error {
  constructor(readonly transactionId: number) {
    super("repeated refund");
  }
}

export type ReferralsDeps = {
  db: Database;
  ledger: LedgerService;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Share of each payment, in basis points (1000 = 10 %). */
  rewardBasisPoints: number;
  findByUsername: (username: string) => Promise<AccountRow | null>;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  /** USD per satoshi now (the wallet's kept rate). */
  satToUsd: () => Promise<number>;
  /** An organisation's money movements one at a time (load-limits.ts). */
  money: KeyedGate;
  now?: () => number;
};

/**
 * Referral links and rewards, and super admins' refunds. A reward is the referrer's share of a referred
 * organisation's payment, written by a ledger payment hook in the payment's own transaction (so exactly once
 * per payment). A claim is one ledger transaction (referral expense -> the referrer's wallet) that marks the
 * rewards it pays in the same transaction; a concurrent claim finds them taken and changes nothing.
 */
export function createReferralsService(deps: ReferralsDeps) {
  const repo = createReferralsRepository(deps.db);
  const { ledger } = deps;
  const now = deps.now ?? Date.now;

  ledger.onPayment(async (tx, payment) => {
    if (!REWARDED_PAYMENTS.has(payment.kind) || payment.amountCents <= 0) return;
    await repo.accrue(tx, payment, deps.rewardBasisPoints);
  });

  /** The account whose link and wallet the call is about: an agent account's organisation. */
  async function referrerOf(access: Access): Promise<AccountRow> {
    const id = walletOwnerOf(access.target);
    if (id === access.target.id) return access.target;
    const account = await deps.loadAccount(id);
    if (!account) throw notFound(REFERRAL_MESSAGES.noSuchUser);
    return account;
  }

  async function overview(access: Access) {
    const referrer = await referrerOf(access);
    const [totals, rewards, referred] = await Promise.all([
      repo.totals(referrer.id),
      repo.rewards(referrer.id),
      repo.referred(referrer.id),
    ]);
    const link = new URL("/signup", deps.publicUrl);
    link.searchParams.set(REFERRAL_PARAM, referrer.username);
    return {
      success: true as const,
      target: referrer.username,
      referralLink: link.toString(),
      rewardPercent: deps.rewardBasisPoints / 100,
      earnedCents: totals.earned,
      claimedCents: totals.claimed,
      claimableCents: totals.claimable,
      referredCount: referred.count,
      referred: referred.rows.map((r) => ({
        accountId: r.accountId,
        name: r.name ?? `Account ${r.accountId}`,
        joinedAt: r.createdAt.getTime(),
        earnedCents: Number(r.earned),
      })),
      rewards: rewards.map(({ reward, name }) => ({
        id: reward.id,
        referredAccountId: reward.referredAccountId,
        referredName: name ?? `Account ${reward.referredAccountId}`,
        paymentKind: reward.paymentKind,
        paymentCents: reward.paymentCents,
        rewardCents: reward.rewardCents,
        createdAt: reward.createdAt.getTime(),
        claimedAt: reward.claimedAt?.getTime() ?? null,
      })),
    };
  }

  /** Thrown in a claim's transaction when another claim took its rewards first: rolls it back. */
  class Taken extends Error {}

  async function claim(access: Access) {
    const referrer = await referrerOf(access);
    const open = await repo.claimable(referrer.id);
    const ids = open.map((r) => r.id);
    const amount = open.reduce((sum, r) => sum + Number(r.rewardCents), 0);
    const first = ids[0];
    if (first === undefined || amount <= 0) throw conflict(REFERRAL_MESSAGES.nothingToClaim);
    // Each reward is claimed once, so the oldest reward of a claim names it: two claims racing for the same
    // rewards post the same key, and the second is a replay; the marking below catches any other overlap.
    const result = await ledger
      .post({
        idempotencyKey: `referral-claim:${referrer.id}:${first}`,
        kind: "reward",
        ownerAccountId: referrer.id,
        description: `Referral rewards claimed (${ids.length} ${ids.length === 1 ? "payment" : "payments"})`,
        metadata: { rewardIds: ids, amountCents: amount },
        postings: [
          { account: ledger.platform("expense:rewards"), amount: -amount },
          { account: ledger.wallet(referrer.id), amount },
        ],
        within: async (tx, transactionId) => {
          if ((await repo.markClaimed(tx, ids, transactionId)) !== amount) throw new Taken();
        },
      })
      .catch((error: unknown) => {
        if (error instanceof Taken) return null;
        throw error;
      });
    if (!result || result.replayed) throw conflict(REFERRAL_MESSAGES.nothingToClaim);
    const balances = await ledger.balances(referrer.id);
    return {
      success: true as const,
      claimedCents: amount,
      availableCents: balances.usd.available,
      transactionId: result.transactionId,
    };
  }

  // --- refunds (super admin) --------------------------------------------------------------------------

  async function refund(
    access: Access,
    body: { username: string; usdAmount?: number; satsAmount?: number; idempotencyKey?: string },
  ) {
    const account = await deps.findByUsername(body.username);
    if (!account) throw notFound(REFERRAL_MESSAGES.noSuchUser);
    const owner = walletOwnerOf(account);
    let amountCents: number;
    let amountSats: number | null = null;
    if (body.satsAmount !== undefined) {
      amountSats = body.satsAmount;
      amountCents = Math.floor(amountSats * (await deps.satToUsd()) * 100);
    } else {
      amountCents = Math.round((body.usdAmount ?? 0) * 100);
    }
    if (amountCents <= 0) throw new ApiError(400, REFERRAL_MESSAGES.refundTooSmall);
    const admin = access.caller.user.id;
    // What a keyless request repeats: the same admin refunding the same amount into the same wallet.
    const repeatKey = createHash("sha256")
      .update(amountSats !== null ? `${admin}:sats:${amountSats}` : `${admin}:usd:${amountCents}`)
      .digest("hex")
      .slice(0, 32);
    const key = body.idempotencyKey
      ? `refund:${admin}:${body.idempotencyKey}`
      : `refund:${owner}:keyless:${randomUUID()}`;
    try {
      const post = () =>
        ledger.post({
          idempotencyKey: key,
          kind: "refund",
          ownerAccountId: owner,
          description:
            amountSats !== null
              ? `Refund (${amountSats.toLocaleString("en-US")} sats)`
              : `Refund ($${(amountCents / 100).toFixed(2)})`,
          metadata: {
            amountCents,
            amountSats,
            byUserId: admin,
            username: account.username,
            ...(body.idempotencyKey ? {} : { repeatKey }),
          },
          postings: [
            { account: ledger.platform("expense:refunds"), amount: -amountCents },
            { account: ledger.wallet(owner), amount: amountCents },
          ],
          within: async (tx, transactionId) => {
            if (body.idempotencyKey) return;
            const earlier = await repo.repeatedRefund(tx, {
              owner,
              repeatKey,
              transactionId,
              since: new Date(now() - KEYLESS_REPEAT_MS),
            });
            if (earlier !== null) throw new RepeatedRefund(earlier);
          },
        });
      const result = await deps.money.run(owner, post).catch((error: unknown) => {
        if (error instanceof RepeatedRefund) return { transactionId: error.transactionId, replayed: true };
        throw error;
      });
      let refunded = amountCents;
      if (result.replayed && body.idempotencyKey) {
        const first = await ledger.transactionByKey(key);
        const kept = first?.metadata?.amountCents;
        if (typeof kept === "number") refunded = kept;
      }
      return {
        success: true as const,
        message: REFERRAL_MESSAGES.refunded,
        refundedCents: refunded,
        accountId: owner,
        transactionId: result.transactionId,
        replayed: result.replayed,
      };
    } catch (error) {
      if (error instanceof ApiError || isDatabaseBusy(error)) throw error;
      deps.log.error({ err: error, username: body.username }, "refund not posted");
      throw new ApiError(500, REFERRAL_MESSAGES.refundFailed);
    }
  }

  return { overview, claim, refund };
}

export type ReferralsService = ReturnType<typeof createReferralsService>;
