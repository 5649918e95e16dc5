import type { AppContext } from "../../app-context.ts";
import { createLedgerService } from "./ledger.service.ts";
import { createWithdrawals } from "./withdrawals.ts";

/**
 * The ledger: every money movement of the platform (top-ups, usage, subscriptions, refunds, rewards,
 * withdrawals) is one balanced, idempotent transaction of postings. It has no routes of its own: the wallet,
 * billing and referral modules post through it.
 */
export function createLedgerModule(context: AppContext) {
  const ledger = createLedgerService(context.database.db);
  const withdrawals = createWithdrawals(context.database.db, ledger);
  return { ledger, withdrawals, routes: [] };
}

export type LedgerModule = ReturnType<typeof createLedgerModule>;
