import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import type { Database } from "../../db/client.ts";
import { stripeConnectAccounts } from "../../db/schema/index.ts";
import { stripeClient } from "./stripe-client.ts";

/**
 * Stripe Connect for withdrawals to a bank account: a connected account per wallet owner, its hosted
 * onboarding (Account Links), its state (payouts enabled?) and transfers from the platform's balance to it.
 * Chosen with PAYMENTS: Stripe's API, or the offline sandbox (onboarding is a page on this server, where the
 * user adds a test bank account; its transfers succeed once payouts are enabled).
 */
export type ConnectedAccountState = { detailsSubmitted: boolean; payoutsEnabled: boolean };

export type TransferOutcome = { status: "paid"; transferId: string } | { status: "refused"; reason: string };

export type ConnectProvider = {
  name: "sandbox" | "stripe";
  createAccount(input: { email: string | undefined; ownerAccountId: number }): Promise<{ accountId: string }>;
  /** Where the user onboards; it comes back to successUrl (done) or failureUrl (left, or the link expired). */
  onboardingLink(input: {
    accountId: string;
    onboardingId: string;
    successUrl: string;
    failureUrl: string;
  }): Promise<string>;
  account(accountId: string): Promise<ConnectedAccountState>;
  /** Sends amountCents to the connected account once per idempotency key. */
  transfer(input: {
    accountId: string;
    amountCents: number;
    idempotencyKey: string;
  }): Promise<TransferOutcome>;
};

/** The offline sandbox: the connected account's state is the row the onboarding page completes. */
export function sandboxConnect(db: Database, publicUrl: string): ConnectProvider {
  async function state(accountId: string): Promise<ConnectedAccountState | null> {
    const [row] = await db
      .select()
      .from(stripeConnectAccounts)
      .where(eq(stripeConnectAccounts.externalAccountId, accountId))
      .limit(1);
    return row ? { detailsSubmitted: row.detailsSubmitted, payoutsEnabled: row.payoutsEnabled } : null;
  }
  return {
    name: "sandbox",
    async createAccount() {
      return { accountId: `acct_sandbox_${randomBytes(10).toString("hex")}` };
    },
    async onboardingLink(input) {
      return `${publicUrl}/sandbox/stripe/connect/${encodeURIComponent(input.onboardingId)}`;
    },
    async account(accountId) {
      return (await state(accountId)) ?? { detailsSubmitted: false, payoutsEnabled: false };
    },
    async transfer(input) {
      const current = await state(input.accountId);
      if (!current?.payoutsEnabled)
        return { status: "refused", reason: "The connected account cannot receive transfers yet." };
      return { status: "paid", transferId: `tr_sandbox_${input.idempotencyKey}` };
    },
  };
}

/** Stripe's API (PAYMENTS=stripe): Express accounts, Account Links, Transfers. */
export function stripeConnect(options: { secretKey: string; apiUrl?: string | undefined }): ConnectProvider {
  const stripe = stripeClient(options);
  return {
    name: "stripe",
    async createAccount(input) {
      const account = await stripe.accounts.create(
        {
          type: "express",
          ...(input.email ? { email: input.email } : {}),
          capabilities: { transfers: { requested: true } },
          metadata: { ownerAccountId: String(input.ownerAccountId) },
        },
        { idempotencyKey: `connect-account:${input.ownerAccountId}` },
      );
      return { accountId: account.id };
    },
    async onboardingLink(input) {
      const link = await stripe.accountLinks.create({
        account: input.accountId,
        refresh_url: input.failureUrl,
        return_url: input.successUrl,
        type: "account_onboarding",
      });
      return link.url;
    },
    async account(accountId) {
      const account = await stripe.accounts.retrieve(accountId);
      return {
        detailsSubmitted: account.details_submitted ?? false,
        payoutsEnabled: account.payouts_enabled ?? false,
      };
    },
    async transfer(input) {
      try {
        const transfer = await stripe.transfers.create(
          { amount: input.amountCents, currency: "usd", destination: input.accountId },
          { idempotencyKey: input.idempotencyKey },
        );
        return { status: "paid", transferId: transfer.id };
      } catch (error) {
        // A refusal (invalid request, e.g. insufficient platform balance) releases the funds; anything
        // else (network, Stripe down) is thrown and the job retries with the same idempotency key.
        if (error instanceof Stripe.errors.StripeInvalidRequestError)
          return { status: "refused", reason: error.message };
        throw error;
      }
    },
  };
}
