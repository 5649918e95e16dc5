import { z } from "zod";
import { defineRoute } from "../route.ts";

/**
 * Withdrawals from the prepaid wallet (call catalogue "Billing, plans, payments"): to a lightning invoice
 * (`requestWithdrawal`, type ln) or a PayPal / Venmo payout (`payout/paypal/...`). Each holds the funds
 * first (never more than the available balance, even when many arrive at once), then settles when the money
 * left, or releases them back to the wallet when the payment failed.
 */

/** Smallest and largest withdrawal (the spec shows none). */
export const WITHDRAW_MIN_USD = 1;
export const WITHDRAW_MAX_USD = 10_000;

export const WITHDRAW_MESSAGES = {
  amount: `Enter an amount from $${WITHDRAW_MIN_USD} to $${WITHDRAW_MAX_USD.toLocaleString("en-US")}.`,
  insufficientFunds: "The amount is more than the available balance.",
  invoice: "This is not a lightning invoice (BOLT11).",
  invoiceNoAmount: "The invoice must carry an amount.",
  invoiceExpired: "This invoice has expired. Create a new one.",
  invoiceOurs: "This invoice was issued by this platform: it cannot be paid from the wallet.",
  invoiceUsed: "A withdrawal to this invoice was already requested.",
  paypalAddress: "Enter the PayPal account's email address.",
  venmoAddress: "Enter the Venmo account's email address or US mobile number.",
  withdrawalNotFound: "This withdrawal does not exist.",
  payoutsUnavailable: "The payout provider did not answer. Try again in a minute.",
  stripeNotConnected: "Connect a bank account with Stripe first.",
  stripePayoutsDisabled:
    "Stripe has not enabled payouts on the connected account yet. Finish its onboarding.",
  onboardingNotFound: "This onboarding link does not exist or has expired.",
} as const;

const dollars = z.coerce
  .number({ message: WITHDRAW_MESSAGES.amount })
  .refine(
    (v) => Number.isFinite(v) && v >= WITHDRAW_MIN_USD && v <= WITHDRAW_MAX_USD,
    WITHDRAW_MESSAGES.amount,
  )
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, WITHDRAW_MESSAGES.amount);

export const withdrawalSchema = z.object({
  id: z.number().int(),
  method: z.enum(["ln", "venmo", "paypal", "stripe"]),
  address: z.string(),
  amountCents: z.number().int(),
  amountSats: z.number().int().nullable(),
  /** pending: the funds are on hold; settled: paid out; released: the payment failed, funds returned. */
  status: z.enum(["pending", "settled", "released"]),
  failureReason: z.string().nullable(),
  /** The payment's id at the provider (payment hash, payout batch id). */
  externalId: z.string().nullable(),
  /** The sandbox's page of this payout (payouts sandbox only). */
  sandboxUrl: z.string().nullable(),
  createdAt: z.number().describe("ms since the epoch"),
  finishedAt: z.number().nullable().describe("ms since the epoch"),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

const withdrawalAnswer = z.object({
  success: z.literal(true),
  withdrawal: withdrawalSchema,
  balance: z.object({
    availableCents: z.number().int(),
    heldCents: z.number().int(),
    currency: z.literal("usd"),
  }),
});

export const requestWithdrawal = defineRoute({
  id: "requestWithdrawal",
  method: "POST",
  path: "/api/v1/requestWithdrawal",
  summary:
    "Withdraw to a lightning invoice (type ln): the invoice's amount, at the current rate, is held from the wallet, then the platform's node pays the invoice; settled when paid, released when the payment fails. An invoice is withdrawn to at most once.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  body: z.object({
    address: z.string().trim().min(1, WITHDRAW_MESSAGES.invoice).max(4000, WITHDRAW_MESSAGES.invoice),
    type: z.literal("ln", { message: "type: ln." }).default("ln"),
  }),
  response: withdrawalAnswer,
});

const payoutBody = z.object({
  address: z.string().trim().min(1).max(320),
  amountUsd: dollars,
});

export const payoutVenmo = defineRoute({
  id: "payoutVenmo",
  method: "POST",
  path: "/api/v1/payout/paypal/venmo",
  summary:
    "Withdraw amountUsd to a Venmo account (its email or US mobile number) through PayPal Payouts: held, then settled when the payout succeeds or released when it fails.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  body: payoutBody,
  response: withdrawalAnswer,
});

export const payoutPaypal = defineRoute({
  id: "payoutPaypal",
  method: "POST",
  path: "/api/v1/payout/paypal/paypal",
  summary:
    "Withdraw amountUsd to a PayPal account (its email) through PayPal Payouts: held, then settled when the payout succeeds or released when it fails.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  body: payoutBody,
  response: withdrawalAnswer,
});

export const getWithdrawal = defineRoute({
  id: "getWithdrawal",
  method: "GET",
  path: "/api/v1/withdrawals/{withdrawalId}",
  summary: "A withdrawal of the account in view and its state (pending, settled, released).",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  params: z.object({ withdrawalId: z.coerce.number().int().positive().max(2_147_483_647) }),
  response: withdrawalAnswer,
});

export const listWithdrawals = defineRoute({
  id: "listWithdrawals",
  method: "GET",
  path: "/api/v1/withdrawals",
  summary: "The withdrawals of the account in view, newest first.",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).catch(50).default(50) }),
  response: z.object({
    success: z.literal(true),
    withdrawals: z.array(withdrawalSchema),
    /** The sandbox lightning wallet's page, where the user makes an invoice to withdraw to (sandbox only). */
    sandboxLightningWalletUrl: z.string().nullable(),
  }),
});

export const sandboxPayoutsPage = defineRoute({
  id: "sandboxPayoutsPage",
  method: "GET",
  path: "/sandbox/payouts/{batchId}",
  summary:
    "The offline payouts sandbox (PAYOUTS=sandbox), like PayPal's sandbox: one payout batch it received (by its unguessable batch id): receiver, amount and state.",
  tag: "Wallet",
  auth: "none",
  params: z.object({ batchId: z.string().max(100) }),
  produces: "text/html",
});

export const sandboxLightningReceive = defineRoute({
  id: "sandboxLightningReceive",
  method: "POST",
  path: "/sandbox/lightning/wallet/receive",
  summary:
    "The sandbox lightning wallet page's receive form: makes an invoice of the sandbox wallet (another node of the sandbox network) for amountSats, to withdraw to.",
  tag: "Wallet",
  auth: "none",
  body: z.object({ amountSats: z.coerce.number().int().min(1).max(100_000_000).catch(0) }),
  produces: "text/html",
});

const connectReturnUrl = z.string().trim().min(1).max(2000);

export const stripeConnectAccount = defineRoute({
  id: "stripeConnectAccount",
  method: "POST",
  path: "/api/v1/payout/stripe/connectAccount",
  summary:
    "Connect a bank account for withdrawals through Stripe Connect: makes (or reuses) the wallet owner's connected account and answers its onboarding link (Stripe's Account Link, or the payouts sandbox's onboarding page), which returns to successUrl or failureUrl.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  body: z.object({ failureUrl: connectReturnUrl, successUrl: connectReturnUrl }),
  response: z.object({ success: z.literal(true), url: z.string() }),
});

export const stripeConnectedAccountSchema = z.object({
  connected: z.boolean(),
  /** Stripe's acct_... id, when one was made. */
  accountId: z.string().nullable(),
  detailsSubmitted: z.boolean(),
  payoutsEnabled: z.boolean(),
});

export const stripeCheckConnectedAccount = defineRoute({
  id: "stripeCheckConnectedAccount",
  method: "GET",
  path: "/api/v1/payout/stripe/checkConnectedAccount",
  summary:
    "Whether the wallet owner has a Stripe connected account, and whether Stripe enabled payouts on it (asked from Stripe, or the sandbox).",
  tag: "Wallet",
  auth: "token",
  permission: "canViewBilling",
  response: z.object({ success: z.literal(true) }).merge(stripeConnectedAccountSchema),
});

export const stripeTransferFunds = defineRoute({
  id: "stripeTransferFunds",
  method: "POST",
  path: "/api/v1/payout/stripe/transferFunds",
  summary:
    "Withdraw amountUsd to the connected Stripe account (a Connect transfer): held, then settled when the transfer is made or released when Stripe refuses it.",
  tag: "Wallet",
  auth: "token",
  permission: "canManageBilling",
  body: z.object({ amountUsd: dollars }),
  response: withdrawalAnswer,
});

export const sandboxStripeConnectPage = defineRoute({
  id: "sandboxStripeConnectPage",
  method: "GET",
  path: "/sandbox/stripe/connect/{onboardingId}",
  summary:
    "The payouts sandbox's stand-in for Stripe's hosted Connect onboarding (by its unguessable onboarding id): add a test bank account, or leave.",
  tag: "Wallet",
  auth: "none",
  params: z.object({ onboardingId: z.string().max(100) }),
  produces: "text/html",
});

export const sandboxStripeConnectSubmit = defineRoute({
  id: "sandboxStripeConnectSubmit",
  method: "POST",
  path: "/sandbox/stripe/connect/{onboardingId}",
  summary:
    "The sandbox onboarding page's form: `action=complete` enables payouts and redirects to successUrl; `action=leave` redirects to failureUrl.",
  tag: "Wallet",
  auth: "none",
  params: z.object({ onboardingId: z.string().max(100) }),
  body: z.object({
    action: z.enum(["complete", "leave"]).default("complete"),
    routingNumber: z.string().max(20).default(""),
    accountNumber: z.string().max(30).default(""),
  }),
  produces: "text/html",
});

export const withdrawalRoutes = [
  requestWithdrawal,
  payoutVenmo,
  payoutPaypal,
  getWithdrawal,
  listWithdrawals,
  sandboxPayoutsPage,
  sandboxLightningReceive,
  stripeConnectAccount,
  stripeCheckConnectedAccount,
  stripeTransferFunds,
  sandboxStripeConnectPage,
  sandboxStripeConnectSubmit,
] as const;
