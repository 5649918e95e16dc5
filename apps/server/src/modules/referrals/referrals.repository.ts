import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { accounts, ledgerTransactions, referralRewards, referrals } from "../../db/schema/index.ts";

export type ReferralRewardRow = typeof referralRewards.$inferSelect;

/** How many rewards and referred organisations the overview lists (the sums cover all of them). */
const LIST_LIMIT = 100;

/** Namespace of the keyless refunds' locks (pg_advisory_xact_lock(namespace, hash of what they repeat)). */
const REFUND_LOCK = 74_173;

/**
 * Records who referred a new organisation — called in the sign-up's own transaction (`db` is its `tx`), so
 * an organisation is referred exactly when it is made.
 */
export async function recordReferral(
  db: Database,
  values: { referredAccountId: number; referrerAccountId: number; target: string },
): Promise<void> {
  if (values.referredAccountId === values.referrerAccountId) return;
  await db.insert(referrals).values(values).onConflictDoNothing();
}

export function createReferralsRepository(db: Database) {
  const nameOf = sql<string>`coalesce(${accounts.details}->>'orgName', ${accounts.details}->>'displayName', ${accounts.username})`;
  return {
    /**
     * In a keyless refund's transaction: waits for any other refund of the same admin, wallet and amount,
     * then answers the id of such a refund posted since `since`, or null. Two at once are one after the
     * other: the second sees the first.
     */
    async repeatedRefund(
      tx: Database,
      refund: { owner: number; repeatKey: string; transactionId: number; since: Date },
    ): Promise<number | null> {
      await tx.execute(
        sql`select pg_advisory_xact_lock(${REFUND_LOCK}, hashtext(${`${refund.owner}:${refund.repeatKey}`}))`,
      );
      const [row] = await tx
        .select({ id: ledgerTransactions.id })
        .from(ledgerTransactions)
        .where(
          and(
            eq(ledgerTransactions.ownerAccountId, refund.owner),
            eq(ledgerTransactions.kind, "refund"),
            sql`${ledgerTransactions.metadata}->>'repeatKey' = ${refund.repeatKey}`,
            gt(ledgerTransactions.createdAt, refund.since),
            sql`${ledgerTransactions.id} <> ${refund.transactionId}`,
          ),
        )
        .orderBy(asc(ledgerTransactions.id))
        .limit(1);
      return row?.id ?? null;
    },

    /**
     * The reward of one payment, in the payment's ledger transaction (`tx`): nothing unless the payer was
     * referred; at most one per payment (the payment's transaction id is unique).
     */
    async accrue(
      tx: Database,
      payment: { transactionId: number; kind: string; payerAccountId: number; amountCents: number },
      basisPoints: number,
    ): Promise<void> {
      const [referral] = await tx
        .select({ referrerAccountId: referrals.referrerAccountId })
        .from(referrals)
        .where(eq(referrals.referredAccountId, payment.payerAccountId))
        .limit(1);
      if (!referral) return;
      // Integer cents, rounded down: the platform never pays out a fraction it did not receive.
      const rewardCents = Math.floor((payment.amountCents * basisPoints) / 10_000);
      if (rewardCents <= 0) return;
      await tx
        .insert(referralRewards)
        .values({
          referrerAccountId: referral.referrerAccountId,
          referredAccountId: payment.payerAccountId,
          paymentTransactionId: payment.transactionId,
          paymentKind: payment.kind,
          paymentCents: payment.amountCents,
          basisPoints,
          rewardCents,
        })
        .onConflictDoNothing({ target: referralRewards.paymentTransactionId });
    },

    /** The referrer's totals: earned (all), claimed, claimable, in cents. */
    async totals(referrer: number) {
      const [row] = await db
        .select({
          earned: sql<string>`coalesce(sum(${referralRewards.rewardCents}), 0)::text`,
          claimed: sql<string>`coalesce(sum(${referralRewards.rewardCents}) filter (where ${referralRewards.claimTransactionId} is not null), 0)::text`,
        })
        .from(referralRewards)
        .where(eq(referralRewards.referrerAccountId, referrer));
      const earned = Number(row?.earned ?? 0);
      const claimed = Number(row?.claimed ?? 0);
      return { earned, claimed, claimable: earned - claimed };
    },

    /** The referrer's latest rewards with the referred organisation's name. */
    async rewards(referrer: number) {
      return db
        .select({ reward: referralRewards, name: nameOf })
        .from(referralRewards)
        .leftJoin(accounts, eq(accounts.id, referralRewards.referredAccountId))
        .where(eq(referralRewards.referrerAccountId, referrer))
        .orderBy(desc(referralRewards.id))
        .limit(LIST_LIMIT);
    },

    /** The organisations the referrer referred, newest first, with what each one's payments earned. */
    async referred(referrer: number) {
      const count = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(referrals)
        .where(eq(referrals.referrerAccountId, referrer));
      const rows = await db
        .select({
          accountId: referrals.referredAccountId,
          createdAt: referrals.createdAt,
          name: nameOf,
          earned: sql<string>`(select coalesce(sum(r.reward_cents), 0)::text from referral_rewards r
            where r.referrer_account_id = ${referrals.referrerAccountId}
              and r.referred_account_id = ${referrals.referredAccountId})`,
        })
        .from(referrals)
        .leftJoin(accounts, eq(accounts.id, referrals.referredAccountId))
        .where(eq(referrals.referrerAccountId, referrer))
        .orderBy(desc(referrals.createdAt))
        .limit(LIST_LIMIT);
      return { count: count[0]?.n ?? 0, rows };
    },

    /** The referrer's unclaimed rewards, oldest first (read outside the claim; the claim re-checks them). */
    async claimable(referrer: number) {
      return db
        .select({ id: referralRewards.id, rewardCents: referralRewards.rewardCents })
        .from(referralRewards)
        .where(
          and(eq(referralRewards.referrerAccountId, referrer), isNull(referralRewards.claimTransactionId)),
        )
        .orderBy(asc(referralRewards.id));
    },

    /**
     * Marks the rewards claimed by the claim's ledger transaction, in it (`tx`), unless another claim took
     * them first: answers the cents it marked (the caller refuses the claim unless that is all of them).
     */
    async markClaimed(tx: Database, ids: number[], claimTransactionId: number): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await tx
        .update(referralRewards)
        .set({ claimTransactionId, claimedAt: new Date() })
        .where(and(inArray(referralRewards.id, ids), isNull(referralRewards.claimTransactionId)))
        .returning({ rewardCents: referralRewards.rewardCents });
      return rows.length === ids.length ? rows.reduce((sum, r) => sum + Number(r.rewardCents), 0) : -1;
    },
  };
}

export type ReferralsRepository = ReturnType<typeof createReferralsRepository>;
