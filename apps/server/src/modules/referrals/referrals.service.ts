import { createHash } from "node:crypto";
import { REFERRAL_MESSAGES, REFERRAL_PARAM } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { Access, AccountRow } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import { ApiError, conflict, notFound } from "../../http/api-error.ts";
import type { LedgerService } from "../ledger/ledger.service.ts";
import { walletOwnerOf } from "../wallet/wallet-owner.ts";
import { createReferralsRepository } from "./referrals.repository.ts";

/** The kinds of ledger payment that earn a reward: a plan (and its renewals), card and lightning top-ups. */
export const REWARDED_PAYMENTS = new Set(["subscription", "topup.card", "topup.lightning"]);

/** A refund without a client's key is keyed by admin, account and amount per this window. */
const DERIVED_REFUND_WINDOW_MS = 60_000;

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
    const derived = (window: number) =>
      `refund:${owner}:${createHash("sha256")
        .update(`${admin}:${amountSats ?? ""}:${amountCents}:${window}`)
        .digest("hex")
        .slice(0, 32)}`;
    let key: string;
    if (body.idempotencyKey) key = `refund:${admin}:${body.idempotencyKey}`;
    else {
      const window = Math.floor(now() / DERIVED_REFUND_WINDOW_MS);
      key = derived(window);
      // A double click across a window's edge: the previous window's refund, if under a minute old, is it.
      const previous = await ledger.transactionByKey(derived(window - 1));
      if (previous && now() - previous.createdAt.getTime() < DERIVED_REFUND_WINDOW_MS)
        key = derived(window - 1);
    }
    try {
      const result = await ledger.post({
        idempotencyKey: key,
        kind: "refund",
        ownerAccountId: owner,
        description:
          amountSats !== null
            ? `Refund (${amountSats.toLocaleString("en-US")} sats)`
            : `Refund ($${(amountCents / 100).toFixed(2)})`,
        metadata: { amountCents, amountSats, byUserId: admin, username: account.username },
        postings: [
          { account: ledger.platform("expense:refunds"), amount: -amountCents },
          { account: ledger.wallet(owner), amount: amountCents },
        ],
      });
      let refunded = amountCents;
      if (result.replayed) {
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
      if (error instanceof ApiError) throw error;
      deps.log.error({ err: error, username: body.username }, "refund not posted");
      throw new ApiError(500, REFERRAL_MESSAGES.refundFailed);
    }
  }

  return { overview, claim, refund };
}

export type ReferralsService = ReturnType<typeof createReferralsService>;
