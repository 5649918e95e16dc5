import { randomUUID } from "node:crypto";
import { WITHDRAW_MAX_USD, WITHDRAW_MESSAGES, WITHDRAW_MIN_USD, type Withdrawal } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { Access } from "../../access/access.ts";
import { badRequest, conflict, notFound } from "../../api-error.ts";
import type { KeyedGate } from "../../http/keyed-gate.ts";
import type { JobAttempt } from "../../jobs/job.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { LightningNode } from "../../providers/lightning/lightning-node.ts";
import type { PayoutsProvider } from "../../providers/payouts/payouts-provider.ts";
import { InsufficientFundsError, type WithdrawalRow, type Withdrawals } from "../ledger/index.ts";
import { type WalletService, walletOwnerOf } from "../wallet/index.ts";
import { processWithdrawalJob } from "./jobs.ts";

export type WithdrawalsDeps = {
  withdrawals: Withdrawals;
  wallet: WalletService;
  lightning: LightningNode;
  payouts: PayoutsProvider;
  jobs: JobRunner;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Whose invoices the platform's own node issued (never paid out to: they would pay the platform). */
  ownNodeKey: string | null;
  /** Pays out a Stripe Connect withdrawal (stripe-connect.ts), set once the module has made it. */
  stripeTransfer?: (row: WithdrawalRow) => Promise<void>;
  /** An organisation's money movements one at a time (load-limits.ts). */
  money: KeyedGate;
  now?: () => number;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A Venmo phone number: a US mobile, 10 digits (an optional +1 / 1 in front). */
function usPhone(address: string): string | null {
  const digits = address.replace(/[\s().-]/g, "");
  const match = /^(?:\+?1)?(\d{10})$/.exec(digits);
  return match?.[1] ?? null;
}

export function createWithdrawalsService(deps: WithdrawalsDeps) {
  const now = deps.now ?? Date.now;

  const view = (row: WithdrawalRow): Withdrawal => ({
    id: row.id,
    method: row.method,
    address: row.address,
    amountCents: row.amountCents,
    amountSats: row.amountSats ?? null,
    status: row.status,
    failureReason: row.failureReason ?? null,
    externalId: row.externalId ?? null,
    sandboxUrl:
      deps.payouts.name === "sandbox" && row.externalId && (row.method === "paypal" || row.method === "venmo")
        ? `${deps.publicUrl}/sandbox/payouts/${encodeURIComponent(row.externalId)}`
        : null,
    createdAt: row.createdAt.getTime(),
    finishedAt: row.finishedAt ? row.finishedAt.getTime() : null,
  });

  async function answer(owner: number, row: WithdrawalRow) {
    return { success: true as const, withdrawal: view(row), balance: await deps.wallet.balance(owner) };
  }

  /** Holds the funds and queues the payout in the same transaction; refused beyond the balance. */
  async function hold(
    access: Access,
    input: {
      idempotencyKey: string;
      method: WithdrawalRow["method"];
      address: string;
      amountCents: number;
      amountSats?: number;
    },
  ) {
    const owner = walletOwnerOf(access.target);
    let held: Awaited<ReturnType<Withdrawals["hold"]>>;
    try {
      held = await deps.money.run(owner, () =>
        deps.withdrawals.hold({
          ...input,
          owner,
          userId: access.caller.user.id,
          within: async (tx, withdrawal) => {
            await deps.jobs.send(processWithdrawalJob, { withdrawalId: withdrawal.id }, { transaction: tx });
          },
        }),
      );
    } catch (error) {
      if (error instanceof InsufficientFundsError) throw conflict(WITHDRAW_MESSAGES.insufficientFunds);
      throw error;
    }
    if (held.replayed) {
      if (held.withdrawal.ownerAccountId !== owner) throw conflict(WITHDRAW_MESSAGES.invoiceUsed);
      if (input.method === "ln") throw conflict(WITHDRAW_MESSAGES.invoiceUsed);
    } else deps.jobs.wake(processWithdrawalJob);
    return answer(owner, held.withdrawal);
  }

  async function lightning(access: Access, body: { address: string }) {
    const invoice = body.address.trim().replace(/^lightning:/i, "");
    let decoded: ReturnType<WalletService["decodeInvoice"]>;
    try {
      decoded = deps.wallet.decodeInvoice(invoice);
    } catch {
      throw badRequest(WITHDRAW_MESSAGES.invoice);
    }
    if (decoded.amountSats === null || decoded.amountSats <= 0)
      throw badRequest(WITHDRAW_MESSAGES.invoiceNoAmount);
    if (decoded.expiresAt * 1000 <= now()) throw badRequest(WITHDRAW_MESSAGES.invoiceExpired);
    if (deps.ownNodeKey && decoded.payee === deps.ownNodeKey) throw badRequest(WITHDRAW_MESSAGES.invoiceOurs);
    const { satToUsd } = await deps.wallet.exchangeRate();
    // The wallet pays what the satoshis cost, rounded up to the cent.
    const amountCents = Math.ceil(decoded.amountSats * satToUsd * 100 - 1e-9);
    if (amountCents < WITHDRAW_MIN_USD * 100 || amountCents > WITHDRAW_MAX_USD * 100)
      throw badRequest(WITHDRAW_MESSAGES.amount);
    return hold(access, {
      // One withdrawal per invoice: a node pays a payment hash once.
      idempotencyKey: `withdrawal:ln:${decoded.paymentHash}`,
      method: "ln",
      address: invoice,
      amountCents,
      amountSats: decoded.amountSats,
    });
  }

  async function payout(
    access: Access,
    method: "paypal" | "venmo",
    body: { address: string; amountUsd: number },
  ) {
    const address = body.address.trim();
    let receiver: string;
    if (EMAIL.test(address)) receiver = address.toLowerCase();
    else if (method === "venmo" && usPhone(address)) receiver = usPhone(address) as string;
    else
      throw badRequest(
        method === "paypal" ? WITHDRAW_MESSAGES.paypalAddress : WITHDRAW_MESSAGES.venmoAddress,
      );
    return hold(access, {
      idempotencyKey: `withdrawal:${method}:${randomUUID()}`,
      method,
      address: receiver,
      amountCents: Math.round(body.amountUsd * 100),
    });
  }

  async function one(access: Access, id: number) {
    const owner = walletOwnerOf(access.target);
    const row = await deps.withdrawals.byId(id);
    if (!row || row.ownerAccountId !== owner) throw notFound(WITHDRAW_MESSAGES.withdrawalNotFound);
    return answer(owner, row);
  }

  async function list(access: Access, limit: number) {
    const rows = await deps.withdrawals.byOwner(walletOwnerOf(access.target), limit);
    return {
      success: true as const,
      withdrawals: rows.map(view),
      sandboxLightningWalletUrl: deps.ownNodeKey ? `${deps.publicUrl}/sandbox/lightning/wallet` : null,
    };
  }

  /** The job: pay out one held withdrawal (see processWithdrawalJob). */
  async function process(withdrawalId: number, _attempt: JobAttempt): Promise<void> {
    const row = await deps.withdrawals.byId(withdrawalId);
    if (row?.status !== "pending") return;
    if (row.method === "ln") {
      // An error here (the node did not answer) is retried: the node pays a payment hash at most once.
      const paid = await deps.lightning.payInvoice(row.address);
      if (paid.status === "paid")
        await deps.withdrawals.settle(row, deps.wallet.decodeInvoice(row.address).paymentHash);
      else await deps.withdrawals.release(row, paid.reason);
      return;
    }
    if (row.method === "stripe") {
      if (!deps.stripeTransfer) throw new Error("Stripe Connect withdrawals are not set up");
      // An error here (Stripe did not answer) is retried: the transfer's idempotency key is the withdrawal's.
      await deps.stripeTransfer(row);
      return;
    }
    if (row.method !== "paypal" && row.method !== "venmo") return;
    if (!row.externalId) {
      const sent = await deps.payouts.send({
        senderBatchId: `switchboard-withdrawal-${row.id}`,
        wallet: row.method === "venmo" ? "VENMO" : "PAYPAL",
        recipientType: row.address.includes("@") ? "EMAIL" : "PHONE",
        receiver: row.address,
        amountCents: row.amountCents,
        note: "Withdrawal from your Switchboard wallet",
      });
      if (sent.status === "refused") {
        await deps.withdrawals.release(row, sent.reason);
        return;
      }
      await deps.withdrawals.setExternalId(row.id, sent.batchId);
      row.externalId = sent.batchId;
    }
    const state = await deps.payouts.check({
      batchId: row.externalId,
      receiver: row.address,
      sentAt: row.createdAt,
    });
    if (state.status === "success") await deps.withdrawals.settle(row, row.externalId);
    else if (state.status === "failed") await deps.withdrawals.release(row, state.reason);
    else {
      // Still processing at the provider: ask again later (the funds stay on hold meanwhile).
      await deps.jobs.send(
        processWithdrawalJob,
        { withdrawalId: row.id },
        { startAfter: new Date(now() + deps.payouts.checkAfterMs) },
      );
    }
  }

  async function sandboxPayout(batchId: string) {
    if (deps.payouts.name !== "sandbox")
      throw notFound("The sandbox is off on this server: payouts go through PayPal.");
    const row = await deps.withdrawals.byExternalId(batchId);
    if (!row || (row.method !== "paypal" && row.method !== "venmo"))
      throw notFound("This payout batch does not exist.");
    return view(row);
  }

  return {
    hold,
    lightning,
    payout,
    one,
    list,
    process,
    sandboxPayout,
  };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
