import type { Database } from "../../db/client.ts";
import {
  type AccountRef,
  type Currency,
  createLedgerRepository,
  type LedgerRepository,
} from "./ledger.repository.ts";

export type { AccountRef, Currency } from "./ledger.repository.ts";

/** A posting would take an account below its floor (a wallet below zero): nothing was written. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly account: AccountRef,
    readonly balance: number,
    readonly needed: number,
  ) {
    super(`insufficient funds in ${account.kind} of ${account.owner}: balance ${balance}, change ${needed}`);
    this.name = "InsufficientFundsError";
  }
}

export type PostingInput = { account: AccountRef; amount: number };

export type PostInput = {
  /** Unique per money movement: posting the same key again changes nothing and answers the first. */
  idempotencyKey: string;
  kind: string;
  /** The account whose transaction list shows it. */
  ownerAccountId: number | null;
  description?: string;
  metadata?: Record<string, unknown>;
  postings: PostingInput[];
  /** More writes that must commit with the postings, or not at all (in the same transaction: use `tx`). */
  within?: (tx: Database, transactionId: number) => Promise<void>;
  /**
   * Set when the movement is money an account paid in (a plan, a card or lightning top-up): the payment
   * hooks (referral rewards) run in the same transaction, so they happen once per payment, never on a replay.
   */
  payment?: { payerAccountId: number; amountCents: number };
};

/** A payment as the payment hooks see it, inside its ledger transaction. */
export type PaymentPosted = {
  transactionId: number;
  kind: string;
  idempotencyKey: string;
  payerAccountId: number;
  amountCents: number;
};
export type PaymentHook = (tx: Database, payment: PaymentPosted) => Promise<void>;

export type PostResult = { transactionId: number; replayed: boolean };

const refKey = (ref: AccountRef) => `${ref.owner ?? 0}:${ref.kind}:${ref.currency}`;

/** Sums per currency; throws unless each is zero (a programming error: nothing is written). */
export function checkBalanced(postings: readonly PostingInput[]): void {
  const sums = new Map<Currency, number>();
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0)
      throw new Error(`ledger posting amount must be a non-zero integer, got ${p.amount}`);
    sums.set(p.account.currency, (sums.get(p.account.currency) ?? 0) + p.amount);
  }
  for (const [currency, sum] of sums)
    if (sum !== 0) throw new Error(`ledger transaction does not sum to zero in ${currency}: ${sum}`);
}

/**
 * The one way money moves: `post` writes a balanced transaction in one database transaction — the
 * transaction row (its idempotency key unique), its postings, and the kept balance of every account it
 * touches (each balance is the sum of its postings): the owners' accounts are locked first (SELECT ... FOR
 * UPDATE, in id order) and never taken below their floor; the platform's last, just before the commit.
 * A replayed key answers the first transaction and writes nothing.
 */
export function createLedgerService(db: Database, repo: LedgerRepository = createLedgerRepository(db)) {
  // Ledger account ids never change: each is looked up (or made) once per process, even when many
  // postings ask for it at once.
  const ids = new Map<string, Promise<number>>();
  const paymentHooks: PaymentHook[] = [];

  function accountId(ref: AccountRef): Promise<number> {
    const key = refKey(ref);
    let id = ids.get(key);
    if (!id) {
      id = repo.ensureAccount(ref);
      ids.set(key, id);
      id.catch(() => ids.delete(key));
    }
    return id;
  }

  async function post(input: PostInput): Promise<PostResult> {
    checkBalanced(input.postings);
    // Accounts are made (once) before the transaction: their ids never change, so they can be cached.
    const resolved = await Promise.all(
      input.postings.map(async (p) => ({ ...p, id: await accountId(p.account) })),
    );
    return db.transaction(async (tx) => {
      const transactionId = await repo.insertTransaction(tx, {
        idempotencyKey: input.idempotencyKey,
        kind: input.kind,
        ownerAccountId: input.ownerAccountId,
        description: input.description ?? "",
        metadata: input.metadata ?? {},
      });
      if (transactionId === null) {
        const first = await repo.transactionByKey(tx, input.idempotencyKey);
        if (!first) throw new Error("ledger: idempotency key seen but its transaction is missing");
        return { transactionId: first.id, replayed: true };
      }
      const kept = new Map<number, { ref: AccountRef; delta: number }>();
      const platform = new Map<number, number>();
      for (const p of resolved) {
        if (p.account.owner === null) {
          platform.set(p.id, (platform.get(p.id) ?? 0) + p.amount);
          continue;
        }
        const entry = kept.get(p.id) ?? { ref: p.account, delta: 0 };
        entry.delta += p.amount;
        kept.set(p.id, entry);
      }
      const locked = await repo.lockAccounts(tx, [...kept.keys()]);
      for (const row of locked) {
        const change = kept.get(row.id);
        if (!change || row.minBalance === null) continue;
        if (row.balance + change.delta < row.minBalance)
          throw new InsufficientFundsError(change.ref, row.balance, change.delta);
      }
      await repo.insertPostings(
        tx,
        transactionId,
        resolved.map((p) => ({ ledgerAccountId: p.id, currency: p.account.currency, amount: p.amount })),
        [...kept]
          .filter(([, change]) => change.delta !== 0)
          .map(([id, change]) => ({ id, delta: change.delta })),
      );
      await input.within?.(tx, transactionId);
      if (input.payment)
        for (const hook of paymentHooks)
          await hook(tx, {
            transactionId,
            kind: input.kind,
            idempotencyKey: input.idempotencyKey,
            payerAccountId: input.payment.payerAccountId,
            amountCents: input.payment.amountCents,
          });
      await repo.addToPlatformBalances(
        tx,
        [...platform].filter(([, delta]) => delta !== 0).map(([id, delta]) => ({ id, delta })),
      );
      return { transactionId, replayed: false };
    });
  }

  /** The owner's kept balances per currency: available (wallet), held (withdrawals), receivable (owed). */
  async function balances(owner: number) {
    const rows = await repo.ownerAccounts(owner);
    const of = (kind: string, currency: Currency) =>
      rows.find((r) => r.kind === kind && r.currency === currency)?.balance ?? 0;
    return {
      usd: { available: of("wallet", "usd"), held: of("held", "usd"), receivable: of("receivable", "usd") },
    };
  }

  /** Whole-ledger checks: the sum per currency (zero), the postings, accounts whose balance drifted. */
  async function audit() {
    const totals = await repo.totals();
    const drifted = await repo.driftedAccounts();
    return {
      sums: Object.fromEntries(totals.map((t) => [t.currency, Number(t.sum)])) as Partial<
        Record<Currency, number>
      >,
      postings: totals.reduce((sum, t) => sum + Number(t.postings), 0),
      drifted,
    };
  }

  return {
    post,
    /** Runs `hook` in the transaction of every payment posted from now on (see PostInput.payment). */
    onPayment(hook: PaymentHook) {
      paymentHooks.push(hook);
    },
    balances,
    audit,
    accountId,
    recentTransactions: repo.recentTransactions,
    /** The transaction posted with this idempotency key, or null. */
    transactionByKey: (idempotencyKey: string) => repo.transactionByKey(db, idempotencyKey),
    wallet: (owner: number): AccountRef => ({ owner, kind: "wallet", currency: "usd" }),
    held: (owner: number): AccountRef => ({ owner, kind: "held", currency: "usd" }),
    receivable: (owner: number): AccountRef => ({ owner, kind: "receivable", currency: "usd" }),
    platform: (
      kind: Extract<AccountRef, { owner: null }>["kind"],
      currency: Currency = "usd",
    ): AccountRef => ({
      owner: null,
      kind,
      currency,
    }),
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
