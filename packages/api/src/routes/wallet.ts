import { z } from "zod";
import { defineRoute } from "../route.ts";

/**
 * The prepaid wallet (call catalogue "Billing, plans, payments"): balance and recent transactions, the
 * exchange rate, card top-ups through a checkout (Stripe Checkout, or the offline sandbox's hosted test-card
 * page) and lightning top-ups through a BOLT11 invoice whose preimage proves it was paid. Amounts on the
 * wire are dollars (top-ups) or whole cents/satoshis (answers, suffixed `Cents` / `Sats`).
 */

/** Fallback rate when the rate provider cannot answer (spec §9): USD per satoshi. */
export const SAT_TO_USD_FALLBACK = 0.00043;
/** How long an exchange rate is kept (spec §9). */
export const EXCHANGE_RATE_TTL_SECONDS = 900;
/** The catalogue's `{product}` placeholder. */
export const PRODUCT = "switchboard";
/** Smallest and largest top-up (the spec shows none; a card network's own minimum is about $0.50). */
export const TOP_UP_MIN_USD = 1;
export const TOP_UP_MAX_USD = 10_000;

export const WALLET_MESSAGES = {
  amount: `Enter an amount from $${TOP_UP_MIN_USD} to $${TOP_UP_MAX_USD.toLocaleString("en-US")}.`,
  amountSats: "Enter a whole number of satoshis worth at least $1.",
  currency: "Only usd is accepted.",
  returnUrl: "successUrl and cancelUrl must be addresses on this server.",
  noPendingInvoice: "There is no pending invoice.",
  invoiceNotFound: "This invoice was not issued to this account.",
  invoiceAlreadyPaid: "This invoice has already been paid and credited.",
  preimageMismatch: "The preimage does not match the invoice's payment hash.",
  preimageFormat: "The preimage is 64 hexadecimal characters.",
  invoiceExpired: "This invoice has expired. Request a new one.",
  checkoutNotFound: "This checkout does not exist.",
  checkoutClosed: "This checkout is already complete.",
  sandboxOff: "The sandbox is off on this server: payments go through the configured provider.",
  stripeSignature: "Invalid Stripe signature",
  notStripe: "Stripe is not configured on this server.",
  lightningUnavailable: "The lightning node did not answer. Try again in a minute.",
  paymentsUnavailable: "The payment provider did not answer. Try again in a minute.",
} as const;

const money = z.object({
  /** Spendable, in cents. */
  availableCents: z.number().int(),
  /** On hold for withdrawals in progress, in cents. */
  heldCents: z.number().int(),
  /** Usage the wallet could not pay when it was charged, in cents: paid from the next funds. */
  owedCents: z.number().int().optional(),
  currency: z.literal("usd"),
});

export const walletTransactionSchema = z.object({
  id: z.number().int(),
  /** topup.card, topup.lightning, usage, refund, reward, withdrawal.hold, ... */
  kind: z.string(),
  description: z.string(),
  /** The change of the wallet (available funds), in cents: positive for money in. */
  amountCents: z.number().int(),
  /** The change of the funds on hold, in cents. */
  heldCents: z.number().int(),
  /** Satoshis paid, for lightning top-ups. */
  amountSats: z.number().int().nullable(),
  /**
   * What was paid by card outside the wallet, in cents (a plan's subscription or renewal): such a
   * transaction does not change the wallet, so amountCents is 0 beside it.
   */
  paidByCardCents: z.number().int().nullable().optional(),
  createdAt: z.number().describe("ms since the epoch"),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;

export const getRecentTransactions = defineRoute({
  id: "getRecentTransactions",
  method: "GET",
  path: "/api/v1/recentTransactions",
  summary:
    "The wallet of the account in view (an organisation's, or a reseller's or partner's own): its balance and latest transactions, newest first. An agent account shows its organisation's wallet.",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  query: z.object({
    limit: z.coerce.number().int().min(1).max(200).catch(50).default(50),
    /** Paging: only transactions older than this id (the last id of the previous page). */
    before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().catch(undefined),
  }),
  response: z.object({
    success: z.literal(true),
    balance: money,
    transactions: z.array(walletTransactionSchema),
  }),
});

export const getExchangeRates = defineRoute({
  id: "getExchangeRates",
  method: "GET",
  path: "/api/v1/exchangeRates",
  summary: `USD per satoshi (satToUsd) from the rate provider, kept ${EXCHANGE_RATE_TTL_SECONDS} s; ${SAT_TO_USD_FALLBACK} when the provider does not answer.`,
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  response: z.object({
    success: z.literal(true),
    satToUsd: z.number().positive(),
    /** Which provider gave it, or `fallback`. */
    source: z.string(),
    fetchedAt: z.number().describe("ms since the epoch"),
  }),
});

const dollars = z.coerce
  .number({ message: WALLET_MESSAGES.amount })
  .refine((v) => Number.isFinite(v) && v >= TOP_UP_MIN_USD && v <= TOP_UP_MAX_USD, WALLET_MESSAGES.amount)
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, WALLET_MESSAGES.amount);

const returnUrl = z.string().trim().min(1, WALLET_MESSAGES.returnUrl).max(2000, WALLET_MESSAGES.returnUrl);

export const checkoutSessionSchema = z.object({
  id: z.string(),
  status: z.enum(["open", "complete", "expired"]),
  amountCents: z.number().int(),
  currency: z.literal("usd"),
  provider: z.enum(["sandbox", "stripe"]),
});

export const checkoutCredit = defineRoute({
  id: "checkoutCredit",
  method: "POST",
  path: `/api/v1/checkout/${PRODUCT}Credit`,
  summary:
    "Top up the wallet by card: makes a checkout (Stripe Checkout, or the sandbox's hosted test-card page) and answers its url with the two return urls. The wallet is credited once, when the payment completes. Without a token and with `slug`, it pays that payment link instead: the link's organisation is credited.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  anonymousWith: "slug",
  body: z.object({
    amount: dollars,
    /** A payment link's slug: pays that link (the call needs no token then). */
    slug: z.string().trim().toLowerCase().min(1).max(60).optional(),
    currency: z
      .string()
      .trim()
      .toLowerCase()
      .default("usd")
      .refine((v) => v === "usd", WALLET_MESSAGES.currency),
    cancelUrl: returnUrl,
    successUrl: returnUrl,
  }),
  response: z.object({
    success: z.literal(true),
    url: z.string(),
    cancelUrl: z.string(),
    successUrl: z.string(),
    session: checkoutSessionSchema,
  }),
});

export const getCheckoutSession = defineRoute({
  id: "getCheckoutSession",
  method: "GET",
  path: "/api/v1/checkout/sessions/{sessionId}",
  summary:
    "A checkout of the account in view (the return page asks whether it completed and the wallet was credited).",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  params: z.object({ sessionId: z.string().max(200) }),
  response: z.object({ success: z.literal(true), session: checkoutSessionSchema }),
});

export const sandboxCheckoutPage = defineRoute({
  id: "sandboxCheckoutPage",
  method: "GET",
  path: "/sandbox/checkout/{sessionId}",
  summary:
    "The offline sandbox's hosted checkout page (PAYMENTS=sandbox), like Stripe's test mode: pay with a test card (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined) or cancel.",
  tag: "Wallet",
  auth: "none",
  params: z.object({ sessionId: z.string().max(200) }),
  produces: "text/html",
});

/** The form of a sandbox checkout page (wallet credit or a plan): pay with a test card, or cancel. */
export const sandboxCardFormSchema = z.object({
  action: z.enum(["pay", "cancel"]).default("pay"),
  cardNumber: z.string().max(40).default(""),
  expiry: z.string().max(10).default(""),
  cvc: z.string().max(10).default(""),
  name: z.string().max(200).default(""),
});

export const sandboxCheckoutPay = defineRoute({
  id: "sandboxCheckoutPay",
  method: "POST",
  path: "/sandbox/checkout/{sessionId}",
  summary:
    "The sandbox checkout page's form: pays with the card (then redirects to successUrl, the wallet credited once) or shows the card's error; `action=cancel` redirects to cancelUrl.",
  tag: "Wallet",
  auth: "none",
  params: z.object({ sessionId: z.string().max(200) }),
  body: sandboxCardFormSchema,
  produces: "text/html",
});

export const stripeWebhook = defineRoute({
  id: "stripeWebhook",
  method: "POST",
  path: "/api/v1/payments/stripe/webhook",
  summary:
    "Stripe's webhook (PAYMENTS=stripe): the Stripe-Signature header is checked with STRIPE_WEBHOOK_SECRET; checkout.session.completed credits the wallet once (the session's id is the ledger's idempotency key).",
  tag: "Wallet",
  auth: "none",
  response: z.object({ received: z.literal(true) }),
});

export const lightningInvoiceSchema = z.object({
  invoice: z.string().describe("The BOLT11 payment request"),
  paymentHash: z.string(),
  amountSats: z.number().int(),
  /** What the wallet is credited when it is paid, fixed when the invoice was made. */
  amountCents: z.number().int(),
  status: z.enum(["pending", "paid", "reset"]),
  expiresAt: z.number().describe("ms since the epoch"),
  createdAt: z.number().describe("ms since the epoch"),
  /** The sandbox wallet page that pays it (sandbox node only). */
  sandboxWalletUrl: z.string().nullable(),
});
export type LightningInvoice = z.infer<typeof lightningInvoiceSchema>;

export const requestInvoice = defineRoute({
  id: "requestInvoice",
  method: "POST",
  path: "/api/v1/requestInvoice",
  summary:
    "Top up the wallet by lightning: a BOLT11 invoice for `amount` in `unit` (USD, default, or SAT) at the current rate. It becomes the account's pending invoice (one at a time: a new one replaces it). Without a token and with `slug`, an invoice that pays that payment link (its organisation is credited).",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  anonymousWith: "slug",
  body: z.object({
    amount: z.coerce.number({ message: WALLET_MESSAGES.amount }).positive(WALLET_MESSAGES.amount),
    /** A payment link's slug: an invoice that pays that link (no token needed; not the pending invoice). */
    slug: z.string().trim().toLowerCase().min(1).max(60).optional(),
    unit: z
      .string()
      .trim()
      .toUpperCase()
      .default("USD")
      .pipe(z.enum(["USD", "SAT"], { message: "unit: USD or SAT." })),
  }),
  response: z.object({ success: z.literal(true), pendingInvoice: lightningInvoiceSchema }),
});

export const getPendingInvoice = defineRoute({
  id: "getPendingInvoice",
  method: "GET",
  path: "/api/v1/pendingInvoice",
  summary: "The account's pending lightning invoice, or null.",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  response: z.object({ success: z.literal(true), pendingInvoice: lightningInvoiceSchema.nullable() }),
});

export const resetPendingInvoice = defineRoute({
  id: "resetPendingInvoice",
  method: "POST",
  path: "/api/v1/resetPendingInvoice",
  summary:
    "Drop the pending invoice (the user will not pay it). A preimage of it still proves a payment made before.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  body: z.object({}),
  response: z.object({ success: z.literal(true), reset: z.boolean() }),
});

export const provePendingInvoicePaid = defineRoute({
  id: "provePendingInvoicePaid",
  method: "POST",
  path: "/api/v1/provePendingInvoicePaid",
  summary:
    "Prove the invoice was paid with its preimage: the wallet is credited only if SHA-256(preimage) is the invoice's payment hash, and only once.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  anonymousWith: "slug",
  body: z.object({
    /** The payment link whose invoice this is (a payer without an account proves its payment). */
    slug: z.string().trim().toLowerCase().min(1).max(60).optional(),
    preimage: z
      .string()
      .trim()
      .toLowerCase()
      .length(64, WALLET_MESSAGES.preimageFormat)
      .regex(/^[0-9a-f]{64}$/, WALLET_MESSAGES.preimageFormat),
    invoice: z.string().trim().min(1).max(4000),
  }),
  response: z.object({
    success: z.literal(true),
    creditedCents: z.number().int(),
    /** The wallet's balance after it; null for a payment link's invoice (the payer does not see it). */
    balance: money.nullable(),
    invoice: lightningInvoiceSchema,
  }),
});

export const validateInvoice = defineRoute({
  id: "validateInvoice",
  method: "GET",
  path: "/api/v1/validateInvoice",
  summary:
    "Decode a BOLT11 invoice and check its signature: whether it is valid, its network, amount, payment hash, description and expiry.",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  query: z.object({ invoice: z.string().trim().min(1).max(4000) }),
  response: z.object({
    success: z.literal(true),
    valid: z.boolean(),
    message: z.string().nullable(),
    network: z.string().nullable(),
    amountSats: z.number().int().nullable(),
    paymentHash: z.string().nullable(),
    description: z.string().nullable(),
    payee: z.string().nullable(),
    expiresAt: z.number().nullable(),
    expired: z.boolean(),
  }),
});

export const sandboxLightningWalletPage = defineRoute({
  id: "sandboxLightningWalletPage",
  method: "GET",
  path: "/sandbox/lightning/wallet",
  summary:
    "The offline sandbox node's wallet page (LIGHTNING=sandbox): paste an invoice of this server's sandbox node, pay it, and see its preimage.",
  tag: "Wallet",
  auth: "none",
  query: z.object({
    invoice: z.string().max(4000).optional(),
    /** An invoice the sandbox wallet just made to receive (after its receive form). */
    receive: z.string().max(4000).optional(),
  }),
  produces: "text/html",
});

export const sandboxLightningPay = defineRoute({
  id: "sandboxLightningPay",
  method: "POST",
  path: "/sandbox/lightning/wallet",
  summary:
    "The sandbox wallet page's form: pays the invoice (once) and shows the preimage the payer receives.",
  tag: "Wallet",
  auth: "none",
  body: z.object({ invoice: z.string().max(4000).default("") }),
  produces: "text/html",
});

export const walletRoutes = [
  getRecentTransactions,
  getExchangeRates,
  checkoutCredit,
  getCheckoutSession,
  sandboxCheckoutPage,
  sandboxCheckoutPay,
  stripeWebhook,
  requestInvoice,
  getPendingInvoice,
  resetPendingInvoice,
  provePendingInvoicePaid,
  validateInvoice,
  sandboxLightningWalletPage,
  sandboxLightningPay,
] as const;
