import { z } from "zod";
import { defineRoute } from "../route.ts";

/**
 * Referrals and refunds (call catalogue "Billing, plans, payments" and "Super admin"). Every account has a
 * referral link: the sign-up page with `target` (the spec's "Referral invite: target") naming the account.
 * An organisation that signs up through it is the referrer's; each payment it makes (a plan, a card or
 * lightning top-up) earns the referrer a share, which `claimRewards` moves into the referrer's wallet.
 * A super admin refunds an account's organisation into its wallet. Amounts are whole cents (`...Cents`).
 */

export const REFERRAL_MESSAGES = {
  nothingToClaim: "There are no rewards to claim.",
  /** The catalogue's refund messages (spec §8), word for word. */
  refunded: "The refund for the issue has been processed.",
  refundFailed: "Something went wrong.",
  refundAmount: "Give usdAmount (dollars, at most two decimals) or satsAmount (whole satoshis), not both.",
  refundUsd: "usdAmount: from $0.01 to $10,000 with at most two decimals.",
  refundSats: "satsAmount: a whole number of satoshis from 1 to 100,000,000.",
  noSuchUser: "No account has this username.",
  refundTooSmall: "The amount is worth less than one cent.",
} as const;

/** The largest refund one call may make. */
export const REFUND_MAX_USD = 10_000;
export const REFUND_MAX_SATS = 100_000_000;

/** The sign-up page's query parameter naming the referrer (spec: "Referral invite: target"). */
export const REFERRAL_PARAM = "target";

export const referralRewardSchema = z.object({
  id: z.number().int(),
  /** The organisation whose payment earned it. */
  referredAccountId: z.number().int(),
  referredName: z.string(),
  /** subscription, topup.card or topup.lightning. */
  paymentKind: z.string(),
  paymentCents: z.number().int(),
  rewardCents: z.number().int(),
  createdAt: z.number().describe("ms since the epoch"),
  claimedAt: z.number().nullable().describe("ms since the epoch"),
});
export type ReferralReward = z.infer<typeof referralRewardSchema>;

export const referredAccountSchema = z.object({
  accountId: z.number().int(),
  name: z.string(),
  joinedAt: z.number().describe("ms since the epoch"),
  earnedCents: z.number().int(),
});

export const getReferralRewards = defineRoute({
  id: "getReferralRewards",
  method: "GET",
  path: "/api/v1/referralRewards",
  summary:
    "The referral link of the account in view (an agent account's is its organisation's), the organisations that signed up through it, and the rewards their payments earned: earned, claimed and claimable, in cents.",
  tag: "Referrals",
  auth: "token",
  permission: "canViewBilling",
  response: z.object({
    success: z.literal(true),
    /** The value of the link's `target` parameter (the referrer's username). */
    target: z.string(),
    referralLink: z.string(),
    /** The share of each payment a referrer earns, in percent. */
    rewardPercent: z.number(),
    earnedCents: z.number().int(),
    claimedCents: z.number().int(),
    claimableCents: z.number().int(),
    referredCount: z.number().int(),
    referred: z.array(referredAccountSchema),
    rewards: z.array(referralRewardSchema),
  }),
});

export const claimRewards = defineRoute({
  id: "claimRewards",
  method: "POST",
  path: "/api/v1/claimRewards",
  summary:
    "Claim the claimable rewards into the wallet: one ledger posting from the platform's referral expense, once — a second claim, even at the same moment, finds nothing left (409).",
  tag: "Referrals",
  auth: "token",
  permission: "canManageBilling",
  body: z.object({
    claim: z.union([z.literal("true"), z.literal(true)], { message: "claim: 'true'." }),
  }),
  response: z.object({
    success: z.literal(true),
    claimedCents: z.number().int(),
    /** The wallet's balance after the claim, in cents. */
    availableCents: z.number().int(),
    transactionId: z.number().int(),
  }),
});

const refundUsd = z.coerce
  .number({ message: REFERRAL_MESSAGES.refundUsd })
  .refine(
    (v) =>
      Number.isFinite(v) &&
      v >= 0.01 &&
      v <= REFUND_MAX_USD &&
      Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
    REFERRAL_MESSAGES.refundUsd,
  );
const refundSats = z.coerce
  .number({ message: REFERRAL_MESSAGES.refundSats })
  .int(REFERRAL_MESSAGES.refundSats)
  .min(1, REFERRAL_MESSAGES.refundSats)
  .max(REFUND_MAX_SATS, REFERRAL_MESSAGES.refundSats);

export const issueRefundBodySchema = z
  .object({
    username: z.string().trim().min(1).max(60),
    usdAmount: refundUsd.optional(),
    satsAmount: refundSats.optional(),
    /**
     * Makes a repeated request (a double click, a retry) refund once: the web app sends one per confirmed
     * refund. Without it, a request repeating the same admin's refund of the same amount to the same account
     * within a minute refunds nothing more (it answers the first, `replayed: true`).
     */
    idempotencyKey: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{8,100}$/, "idempotencyKey: 8 to 100 letters, digits, - or _.")
      .optional(),
  })
  .refine((b) => (b.usdAmount === undefined) !== (b.satsAmount === undefined), {
    message: REFERRAL_MESSAGES.refundAmount,
    path: ["usdAmount"],
  });

export const issueRefundToUser = defineRoute({
  id: "issueRefundToUser",
  method: "POST",
  path: "/internal/issueRefundToUser",
  summary:
    "Super admin: refund into the wallet of the account with this username (an agent account's organisation) from the platform's refunds expense — usdAmount in dollars, or satsAmount converted at the current rate. A repeated request with the same idempotencyKey refunds once.",
  tag: "Super admin",
  auth: "adminToken",
  body: issueRefundBodySchema,
  response: z.object({
    success: z.literal(true),
    message: z.literal(REFERRAL_MESSAGES.refunded),
    refundedCents: z.number().int(),
    /** The wallet refunded (an organisation, reseller or partner). */
    accountId: z.number().int(),
    transactionId: z.number().int(),
    /** True when this request repeated an earlier one: nothing more was refunded. */
    replayed: z.boolean(),
  }),
});

export const referralRoutes = [getReferralRewards, claimRewards, issueRefundToUser] as const;
