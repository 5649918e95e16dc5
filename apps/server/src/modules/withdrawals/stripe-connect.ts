import { randomBytes, randomUUID } from "node:crypto";
import { WALLET_MESSAGES, WITHDRAW_MESSAGES } from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { ApiError, badRequest, conflict, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { stripeConnectAccounts } from "../../db/schema/index.ts";
import type { ConnectProvider } from "../../providers/payments/connect-provider.ts";
import type { WithdrawalRow, Withdrawals } from "../ledger/index.ts";
import { walletOwnerOf } from "../wallet/index.ts";
import type { WithdrawalsService } from "./withdrawals.service.ts";

type ConnectRow = typeof stripeConnectAccounts.$inferSelect;

/** A return url on this server (its public address or the host the call came to), made absolute. */
export function sameOriginUrl(value: string, publicUrl: string, requestOrigin: string): string {
  let url: URL;
  try {
    url = new URL(value, requestOrigin);
  } catch {
    throw badRequest(
      WALLET_MESSAGES.returnUrl.replace("successUrl and cancelUrl", "successUrl and failureUrl"),
    );
  }
  const allowed = new Set([new URL(publicUrl).origin, new URL(requestOrigin).origin]);
  if (!/^https?:$/.test(url.protocol) || !allowed.has(url.origin))
    throw badRequest(
      WALLET_MESSAGES.returnUrl.replace("successUrl and cancelUrl", "successUrl and failureUrl"),
    );
  return url.toString();
}

/**
 * Stripe Connect withdrawals: the wallet owner's connected account (one per owner), its onboarding and
 * state, and transfers, which go through the withdrawals' hold -> settle / release like every payout.
 */
export function createStripeConnect(deps: {
  db: Database;
  provider: ConnectProvider;
  withdrawals: Withdrawals;
  publicUrl: string;
  /** Holds the funds and queues the payout job (withdrawals.service). */
  hold: WithdrawalsService["hold"];
}) {
  const { db, provider } = deps;

  async function rowOf(owner: number): Promise<ConnectRow | null> {
    const [row] = await db
      .select()
      .from(stripeConnectAccounts)
      .where(eq(stripeConnectAccounts.ownerAccountId, owner))
      .limit(1);
    return row ?? null;
  }

  const unavailable = (error: unknown): never => {
    if (error instanceof ApiError) throw error;
    throw new ApiError(502, WITHDRAW_MESSAGES.payoutsUnavailable);
  };

  async function connectAccount(
    access: Access,
    body: { successUrl: string; failureUrl: string },
    requestOrigin: string,
  ) {
    const owner = walletOwnerOf(access.target);
    const successUrl = sameOriginUrl(body.successUrl, deps.publicUrl, requestOrigin);
    const failureUrl = sameOriginUrl(body.failureUrl, deps.publicUrl, requestOrigin);
    let row = await rowOf(owner);
    if (!row) {
      const created = await provider
        .createAccount({ email: access.caller.user.email ?? undefined, ownerAccountId: owner })
        .catch(unavailable);
      await db
        .insert(stripeConnectAccounts)
        .values({ ownerAccountId: owner, provider: provider.name, externalAccountId: created.accountId })
        .onConflictDoNothing();
      row = (await rowOf(owner)) as ConnectRow;
    }
    const onboardingId = `onb_${randomBytes(18).toString("base64url")}`;
    await db
      .update(stripeConnectAccounts)
      .set({ onboardingId, successUrl, failureUrl, updatedAt: new Date() })
      .where(eq(stripeConnectAccounts.ownerAccountId, owner));
    const url = await provider
      .onboardingLink({ accountId: row.externalAccountId, onboardingId, successUrl, failureUrl })
      .catch(unavailable);
    return { success: true as const, url };
  }

  /** The connected account's state, asked from the provider and kept on the row. */
  async function refreshed(owner: number): Promise<ConnectRow | null> {
    const row = await rowOf(owner);
    if (!row) return null;
    const state = await provider.account(row.externalAccountId).catch(unavailable);
    if (state.payoutsEnabled !== row.payoutsEnabled || state.detailsSubmitted !== row.detailsSubmitted) {
      await db
        .update(stripeConnectAccounts)
        .set({ ...state, updatedAt: new Date() })
        .where(eq(stripeConnectAccounts.ownerAccountId, owner));
    }
    return { ...row, ...state };
  }

  async function check(access: Access) {
    const row = await refreshed(walletOwnerOf(access.target));
    return {
      success: true as const,
      connected: row?.detailsSubmitted ?? false,
      accountId: row?.externalAccountId ?? null,
      detailsSubmitted: row?.detailsSubmitted ?? false,
      payoutsEnabled: row?.payoutsEnabled ?? false,
    };
  }

  async function transferFunds(access: Access, body: { amountUsd: number }) {
    const row = await refreshed(walletOwnerOf(access.target));
    if (!row) throw conflict(WITHDRAW_MESSAGES.stripeNotConnected);
    if (!row.payoutsEnabled) throw conflict(WITHDRAW_MESSAGES.stripePayoutsDisabled);
    return deps.hold(access, {
      idempotencyKey: `withdrawal:stripe:${randomUUID()}`,
      method: "stripe",
      address: row.externalAccountId,
      amountCents: Math.round(body.amountUsd * 100),
    });
  }

  /** The payout job's part for a Stripe withdrawal: one transfer (idempotent per withdrawal). */
  async function process(row: WithdrawalRow): Promise<void> {
    const outcome = await provider.transfer({
      accountId: row.address,
      amountCents: row.amountCents,
      idempotencyKey: `switchboard-withdrawal-${row.id}`,
    });
    if (outcome.status === "paid") await deps.withdrawals.settle(row, outcome.transferId);
    else await deps.withdrawals.release(row, outcome.reason);
  }

  // --- the sandbox's onboarding page ---------------------------------------------------------------------

  async function onboarding(onboardingId: string): Promise<ConnectRow> {
    if (provider.name !== "sandbox") throw notFound(WALLET_MESSAGES.sandboxOff);
    const [row] = await db
      .select()
      .from(stripeConnectAccounts)
      .where(eq(stripeConnectAccounts.onboardingId, onboardingId))
      .limit(1);
    if (!row) throw notFound(WITHDRAW_MESSAGES.onboardingNotFound);
    return row;
  }

  /** The onboarding form: a test bank account enables payouts (then successUrl), leaving goes to failureUrl. */
  async function sandboxSubmit(
    onboardingId: string,
    form: { action: "complete" | "leave"; routingNumber: string; accountNumber: string },
  ): Promise<{ redirect: string } | { error: string; row: ConnectRow }> {
    const row = await onboarding(onboardingId);
    const back = (url: string | null) => url ?? `${deps.publicUrl}/app`;
    if (form.action === "leave") return { redirect: back(row.failureUrl) };
    const routing = form.routingNumber.replace(/\s/g, "");
    const account = form.accountNumber.replace(/\s/g, "");
    if (!/^\d{9}$/.test(routing)) return { error: "Enter a 9-digit routing number.", row };
    if (!/^\d{4,17}$/.test(account)) return { error: "Enter an account number of 4 to 17 digits.", row };
    if (account.endsWith("0002")) return { error: "This bank account was refused. Use another one.", row };
    await db
      .update(stripeConnectAccounts)
      .set({ detailsSubmitted: true, payoutsEnabled: true, onboardingId: null, updatedAt: new Date() })
      .where(eq(stripeConnectAccounts.ownerAccountId, row.ownerAccountId));
    return { redirect: back(row.successUrl) };
  }

  return { connectAccount, check, transferFunds, process, onboarding, sandboxSubmit };
}

export type StripeConnect = ReturnType<typeof createStripeConnect>;
