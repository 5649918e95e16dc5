import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { walletWithdrawals } from "../../db/schema/index.ts";
import type { LedgerService } from "./ledger.service.ts";

export type WithdrawalRow = typeof walletWithdrawals.$inferSelect;

/**
 * Withdrawals hold their funds first (wallet -> held, refused beyond the balance even when many arrive at
 * once: the wallet row is locked), and then settle (held -> payouts: the money left) or are released
 * (held -> wallet). The status moves from pending exactly once, in the transaction of its postings.
 */
export function createWithdrawals(db: Database, ledger: LedgerService) {
  async function hold(input: {
    idempotencyKey: string;
    owner: number;
    method: WithdrawalRow["method"];
    address: string;
    amountCents: number;
    amountSats?: number | null;
    userId?: number | null;
    /** More writes that commit with the hold (e.g. queuing the job that pays it out). */
    within?: (tx: Database, withdrawal: WithdrawalRow) => Promise<void>;
  }): Promise<{ withdrawal: WithdrawalRow; replayed: boolean }> {
    let created: WithdrawalRow | undefined;
    const result = await ledger.post({
      idempotencyKey: input.idempotencyKey,
      kind: "withdrawal.hold",
      ownerAccountId: input.owner,
      description: `Withdrawal (${input.method}) on hold`,
      metadata: { method: input.method, address: input.address, amountSats: input.amountSats ?? null },
      postings: [
        { account: ledger.wallet(input.owner), amount: -input.amountCents },
        { account: ledger.held(input.owner), amount: input.amountCents },
      ],
      within: async (tx, transactionId) => {
        [created] = await tx
          .insert(walletWithdrawals)
          .values({
            ownerAccountId: input.owner,
            method: input.method,
            address: input.address,
            amountCents: input.amountCents,
            amountSats: input.amountSats ?? null,
            requestedByUserId: input.userId ?? null,
            holdTransactionId: transactionId,
          })
          .returning();
        if (created && input.within) await input.within(tx, created);
      },
    });
    if (!created) {
      const [first] = await db
        .select()
        .from(walletWithdrawals)
        .where(eq(walletWithdrawals.holdTransactionId, result.transactionId))
        .limit(1);
      if (!first) throw new Error("withdrawal of a replayed hold is missing");
      return { withdrawal: first, replayed: true };
    }
    return { withdrawal: created, replayed: false };
  }

  async function finish(
    withdrawal: WithdrawalRow,
    outcome: { settled: true; externalId?: string } | { settled: false; reason: string },
  ): Promise<boolean> {
    let moved = false;
    await ledger.post({
      idempotencyKey: `withdrawal:${withdrawal.id}:finish`,
      kind: outcome.settled ? "withdrawal.settle" : "withdrawal.release",
      ownerAccountId: withdrawal.ownerAccountId,
      description: outcome.settled
        ? `Withdrawal (${withdrawal.method}) paid out`
        : `Withdrawal (${withdrawal.method}) failed: funds returned`,
      metadata: { withdrawalId: withdrawal.id, ...(outcome.settled ? {} : { reason: outcome.reason }) },
      postings: [
        { account: ledger.held(withdrawal.ownerAccountId), amount: -withdrawal.amountCents },
        outcome.settled
          ? { account: ledger.platform("payouts"), amount: withdrawal.amountCents }
          : { account: ledger.wallet(withdrawal.ownerAccountId), amount: withdrawal.amountCents },
      ],
      within: async (tx) => {
        const rows = await tx
          .update(walletWithdrawals)
          .set({
            status: outcome.settled ? "settled" : "released",
            finishedAt: new Date(),
            ...(outcome.settled
              ? { externalId: outcome.externalId ?? withdrawal.externalId }
              : { failureReason: outcome.reason }),
          })
          .where(and(eq(walletWithdrawals.id, withdrawal.id), eq(walletWithdrawals.status, "pending")))
          .returning({ id: walletWithdrawals.id });
        if (rows.length !== 1) throw new Error(`withdrawal ${withdrawal.id} is no longer pending`);
        moved = true;
      },
    });
    return moved;
  }

  return {
    hold,
    settle: (w: WithdrawalRow, externalId?: string) =>
      finish(w, externalId === undefined ? { settled: true } : { settled: true, externalId }),
    release: (w: WithdrawalRow, reason: string) => finish(w, { settled: false, reason }),
    /** Keeps the provider's id of a payout sent (the withdrawal still pending). */
    async setExternalId(id: number, externalId: string): Promise<void> {
      await db
        .update(walletWithdrawals)
        .set({ externalId })
        .where(and(eq(walletWithdrawals.id, id), eq(walletWithdrawals.status, "pending")));
    },
    async byOwner(owner: number, limit: number): Promise<WithdrawalRow[]> {
      return db
        .select()
        .from(walletWithdrawals)
        .where(eq(walletWithdrawals.ownerAccountId, owner))
        .orderBy(desc(walletWithdrawals.id))
        .limit(limit);
    },
    async byExternalId(externalId: string): Promise<WithdrawalRow | null> {
      const [row] = await db
        .select()
        .from(walletWithdrawals)
        .where(eq(walletWithdrawals.externalId, externalId))
        .limit(1);
      return row ?? null;
    },
    async byId(id: number): Promise<WithdrawalRow | null> {
      const [row] = await db.select().from(walletWithdrawals).where(eq(walletWithdrawals.id, id)).limit(1);
      return row ?? null;
    },
  };
}

export type Withdrawals = ReturnType<typeof createWithdrawals>;
