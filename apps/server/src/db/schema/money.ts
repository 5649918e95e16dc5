import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * Money (issue 21): an append-only double-entry ledger in integer minor units — cents for `usd`, satoshis for
 * `sat`. A ledger account is a wallet of an organisation, reseller or partner (`wallet`, `held` for
 * withdrawals on hold, `receivable` for usage a wallet could not pay) or one of the platform's own accounts
 * (owner null: money that came in by card or lightning, revenue, refunds, rewards, payouts, exchange).
 * Every transaction's postings sum to zero per currency (a deferred constraint trigger checks it at commit)
 * and postings are never updated or deleted (a trigger refuses). The balances of owners' accounts are kept
 * on the row, changed only by the posting function under a row lock in the posting's transaction; the
 * platform's accounts are summed from their postings instead, so no hot row serialises every posting.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: serial("id").primaryKey(),
    /** The organisation, reseller or partner owning it; null for the platform's own accounts. */
    ownerAccountId: integer("owner_account_id"),
    kind: text("kind").notNull(),
    currency: text("currency").$type<"usd" | "sat">().notNull(),
    /** The sum of the account's postings, kept by each posting (the platform's accounts too). */
    balance: bigint("balance", { mode: "number" }).notNull().default(0),
    /** The lowest the balance may go (0 for a wallet: never an overdraft); null: no floor. */
    minBalance: bigint("min_balance", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_accounts_owner_kind_key").on(
      sql`coalesce(${t.ownerAccountId}, 0)`,
      t.kind,
      t.currency,
    ),
    check("ledger_accounts_floor", sql`${t.minBalance} IS NULL OR ${t.balance} >= ${t.minBalance}`),
  ],
);

/** One money movement: its postings sum to zero per currency. `idempotency_key` makes a replay a no-op. */
export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** topup.card, topup.lightning, usage, subscription, refund, reward, withdrawal.hold, ... */
    kind: text("kind").notNull(),
    /** The account the movement is about (its transaction list shows it). */
    ownerAccountId: integer("owner_account_id"),
    description: text("description").notNull().default(""),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ledger_transactions_idempotency_key").on(t.idempotencyKey),
    index("ledger_transactions_owner_idx").on(t.ownerAccountId, t.id),
  ],
);

export const ledgerPostings = pgTable(
  "ledger_postings",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    transactionId: bigint("transaction_id", { mode: "number" })
      .notNull()
      .references(() => ledgerTransactions.id),
    ledgerAccountId: integer("ledger_account_id")
      .notNull()
      .references(() => ledgerAccounts.id),
    currency: text("currency").$type<"usd" | "sat">().notNull(),
    /** Signed: added to the account's balance. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_postings_account_idx").on(t.ledgerAccountId, t.id),
    index("ledger_postings_transaction_idx").on(t.transactionId),
    check("ledger_postings_nonzero", sql`${t.amount} <> 0`),
  ],
);

/** A withdrawal: its funds are held (wallet -> held) until it is settled (held -> paid out) or released. */
export const walletWithdrawals = pgTable(
  "wallet_withdrawals",
  {
    id: serial("id").primaryKey(),
    ownerAccountId: integer("owner_account_id").notNull(),
    /** ln (lightning), venmo, paypal, stripe (Connect transfer). */
    method: text("method").$type<"ln" | "venmo" | "paypal" | "stripe">().notNull(),
    address: text("address").notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    amountSats: bigint("amount_sats", { mode: "number" }),
    status: text("status").$type<"pending" | "settled" | "released">().notNull().default("pending"),
    failureReason: text("failure_reason"),
    /** The payout's id at the provider (payment hash, payout batch, transfer). */
    externalId: text("external_id"),
    /** The ledger transaction that put the funds on hold (a replayed hold finds its withdrawal by it). */
    holdTransactionId: bigint("hold_transaction_id", { mode: "number" }).notNull(),
    requestedByUserId: integer("requested_by_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("wallet_withdrawals_owner_idx").on(t.ownerAccountId, t.id),
    uniqueIndex("wallet_withdrawals_hold_key").on(t.holdTransactionId),
  ],
);

/**
 * A card checkout (Stripe Checkout Session, or the sandbox's hosted test-card page): a wallet top-up
 * (`credit`), a subscription, or a payment link's payment. Completed once (the webhook or the sandbox page).
 */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(),
    provider: text("provider").$type<"sandbox" | "stripe">().notNull(),
    providerSessionId: text("provider_session_id"),
    ownerAccountId: integer("owner_account_id").notNull(),
    purpose: text("purpose").$type<"credit" | "subscription" | "link">().notNull(),
    /** The payment link paid (purpose link). */
    paymentLinkId: integer("payment_link_id"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull().default("usd"),
    productPlanId: integer("product_plan_id"),
    term: text("term"),
    url: text("url").notNull(),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    status: text("status").$type<"open" | "complete" | "expired">().notNull().default("open"),
    /** The last card error shown on the sandbox page (declined). */
    lastError: text("last_error"),
    createdByUserId: integer("created_by_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("checkout_sessions_owner_idx").on(t.ownerAccountId, t.createdAt),
    uniqueIndex("checkout_sessions_provider_key").on(t.providerSessionId),
  ],
);

/**
 * Lightning top-ups: a BOLT11 invoice for an account. The wallet is credited (amount_cents, fixed when the
 * invoice was made) only when the preimage whose SHA-256 is the payment hash is shown, and only once.
 * One pending invoice per account.
 */
export const lightningInvoices = pgTable(
  "lightning_invoices",
  {
    id: serial("id").primaryKey(),
    ownerAccountId: integer("owner_account_id").notNull(),
    /** The payment link it pays (asked for with a slug, by anyone); null for the owner's own top-up. */
    paymentLinkId: integer("payment_link_id"),
    paymentRequest: text("payment_request").notNull(),
    paymentHash: text("payment_hash").notNull(),
    amountSats: bigint("amount_sats", { mode: "number" }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    status: text("status").$type<"pending" | "paid" | "reset">().notNull().default("pending"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("lightning_invoices_hash_key").on(t.paymentHash),
    // One pending top-up per owner; a payment link's invoices (anyone may ask for one) are not counted.
    uniqueIndex("lightning_invoices_pending_key")
      .on(t.ownerAccountId)
      .where(sql`${t.status} = 'pending' AND ${t.paymentLinkId} IS NULL`),
  ],
);

/**
 * The offline sandbox lightning node's own invoices and payments: it issues real BOLT11 invoices signed with
 * its key and keeps their preimages, and its wallet page pays invoices (its own: revealing the preimage).
 */
export const sandboxLightningInvoices = pgTable("sandbox_lightning_invoices", {
  paymentHash: text("payment_hash").primaryKey(),
  preimage: text("preimage").notNull(),
  paymentRequest: text("payment_request").notNull(),
  amountSats: bigint("amount_sats", { mode: "number" }).notNull(),
  settledAt: timestamp("settled_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Referrals: the organisation that signed up through an account's referral link (`?target=<username>`)
 * and the account that referred it (an organisation, reseller or partner: whose wallet gets the rewards).
 */
export const referrals = pgTable(
  "referrals",
  {
    /** The referred organisation: referred once, at sign-up. */
    referredAccountId: integer("referred_account_id").primaryKey(),
    referrerAccountId: integer("referrer_account_id").notNull(),
    /** The link's `target` as it came (the referrer's username then). */
    target: text("target").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("referrals_referrer_idx").on(t.referrerAccountId, t.createdAt)],
);

/**
 * A reward: the referrer's share of one payment of a referred organisation, written in the payment's own
 * ledger transaction (so once per payment: the payment's transaction id is unique here). A claim moves the
 * unclaimed ones into the referrer's wallet in one ledger transaction and marks them with it.
 */
export const referralRewards = pgTable(
  "referral_rewards",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    referrerAccountId: integer("referrer_account_id").notNull(),
    referredAccountId: integer("referred_account_id").notNull(),
    paymentTransactionId: bigint("payment_transaction_id", { mode: "number" })
      .notNull()
      .references(() => ledgerTransactions.id),
    paymentKind: text("payment_kind").notNull(),
    paymentCents: bigint("payment_cents", { mode: "number" }).notNull(),
    /** The share in basis points when it was earned (1000 = 10 %). */
    basisPoints: integer("basis_points").notNull(),
    rewardCents: bigint("reward_cents", { mode: "number" }).notNull(),
    /** The ledger transaction of the claim that paid it out; null while claimable. */
    claimTransactionId: bigint("claim_transaction_id", { mode: "number" }).references(
      () => ledgerTransactions.id,
    ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("referral_rewards_payment_key").on(t.paymentTransactionId),
    index("referral_rewards_referrer_idx").on(t.referrerAccountId, t.id),
    check("referral_rewards_positive", sql`${t.rewardCents} > 0`),
  ],
);

/**
 * A payment link of an organisation (issue 21): anyone, signed in or not, pays it by card (the same checkout
 * as a top-up, with the link's `slug`) and the organisation's wallet is credited. A fixed amount, or null
 * when the payer chooses. A disabled link is refused.
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: serial("id").primaryKey(),
    ownerAccountId: integer("owner_account_id").notNull(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    /** Fixed amount in cents; null: the payer chooses. */
    amountCents: bigint("amount_cents", { mode: "number" }),
    status: text("status").$type<"active" | "disabled">().notNull().default("active"),
    createdByUserId: integer("created_by_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payment_links_owner_idx").on(t.ownerAccountId, t.id),
    uniqueIndex("payment_links_slug_key").on(sql`lower(${t.slug})`),
  ],
);

/**
 * The Stripe Connect account an organisation withdraws to (one per wallet owner). In the sandbox, the
 * onboarding is a page on this server (`onboarding_id` is its unguessable key, with the two return urls).
 */
export const stripeConnectAccounts = pgTable("stripe_connect_accounts", {
  ownerAccountId: integer("owner_account_id").primaryKey(),
  provider: text("provider").$type<"sandbox" | "stripe">().notNull(),
  /** Stripe's acct_... (or the sandbox's). */
  externalAccountId: text("external_account_id").notNull(),
  detailsSubmitted: boolean("details_submitted").notNull().default(false),
  payoutsEnabled: boolean("payouts_enabled").notNull().default(false),
  onboardingId: text("onboarding_id"),
  successUrl: text("success_url"),
  failureUrl: text("failure_url"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
