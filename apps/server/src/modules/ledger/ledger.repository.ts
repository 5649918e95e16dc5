import { and, asc, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { type Database, executeRows } from "../../db/client.ts";
import { ledgerAccounts, ledgerPostings, ledgerTransactions } from "../../db/schema/index.ts";

export type Currency = "usd" | "sat";

/** Kinds of the accounts an organisation, reseller or partner owns. */
export type OwnerAccountKind = "wallet" | "held" | "receivable";
/** Kinds of the platform's own accounts (owner null): no floor; their balances are kept like owners'. */
export type PlatformAccountKind =
  | "cash:card"
  | "cash:lightning"
  | "fx"
  | "revenue:usage"
  | "revenue:subscription"
  | "revenue:numbers"
  | "expense:refunds"
  | "expense:rewards"
  | "payouts";

export type AccountRef =
  | { owner: number; kind: OwnerAccountKind; currency: Currency }
  | { owner: null; kind: PlatformAccountKind; currency: Currency };

/** The floor of each owner's account kind: a wallet and the held funds never go below zero. */
const FLOORS: Record<OwnerAccountKind, number | null> = { wallet: 0, held: 0, receivable: null };

export type LedgerTransactionRow = typeof ledgerTransactions.$inferSelect;

/**
 * Locks the accounts a posting touches, in id order (so two postings never wait on each other in a
 * circle), and answers their balances and floors. `no key update` is the lock an UPDATE of the balance
 * takes: unlike `update`, it does not wait for the key-share locks other transactions' postings hold on
 * the account (their foreign key), which would make two postings on one account wait on each other.
 */
async function lockAccounts(tx: Database, ids: number[], strength: "update" | "no key update" = "update") {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: ledgerAccounts.id,
      balance: ledgerAccounts.balance,
      minBalance: ledgerAccounts.minBalance,
    })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, ids))
    .orderBy(asc(ledgerAccounts.id))
    .for(strength);
}

export function createLedgerRepository(db: Database) {
  return {
    /** The ledger account's id, made on first use (outside any posting's transaction: ids are cached). */
    async ensureAccount(ref: AccountRef): Promise<number> {
      const minBalance = ref.owner === null ? null : FLOORS[ref.kind];
      await db
        .insert(ledgerAccounts)
        .values({ ownerAccountId: ref.owner, kind: ref.kind, currency: ref.currency, minBalance })
        .onConflictDoNothing();
      const [row] = await db
        .select({ id: ledgerAccounts.id })
        .from(ledgerAccounts)
        .where(
          and(
            ref.owner === null
              ? isNull(ledgerAccounts.ownerAccountId)
              : eq(ledgerAccounts.ownerAccountId, ref.owner),
            eq(ledgerAccounts.kind, ref.kind),
            eq(ledgerAccounts.currency, ref.currency),
          ),
        )
        .limit(1);
      if (!row) throw new Error(`ledger account ${ref.kind} not made`);
      return row.id;
    },

    /** Inserts the transaction row unless its key exists: null when it does (a replay). */
    async insertTransaction(
      tx: Database,
      values: {
        idempotencyKey: string;
        kind: string;
        ownerAccountId: number | null;
        description: string;
        metadata: Record<string, unknown>;
      },
    ): Promise<number | null> {
      const [row] = await tx
        .insert(ledgerTransactions)
        .values(values)
        .onConflictDoNothing({ target: ledgerTransactions.idempotencyKey })
        .returning({ id: ledgerTransactions.id });
      return row?.id ?? null;
    },

    async transactionByKey(tx: Database, idempotencyKey: string): Promise<LedgerTransactionRow | null> {
      const [row] = await tx
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, idempotencyKey))
        .limit(1);
      return row ?? null;
    },

    lockAccounts: (tx: Database, ids: number[]) => lockAccounts(tx, ids),

    /**
     * The postings and the kept balances they change, in one statement (one round trip while the wallet's
     * row lock is held).
     */
    async insertPostings(
      tx: Database,
      transactionId: number,
      postings: { ledgerAccountId: number; currency: Currency; amount: number }[],
      balances: { id: number; delta: number }[],
    ): Promise<void> {
      const values = sql.join(
        postings.map(
          (p) =>
            sql`(${transactionId}::bigint, ${p.ledgerAccountId}::int, ${p.currency}, ${p.amount}::bigint)`,
        ),
        sql`, `,
      );
      if (balances.length === 0) {
        await tx.execute(
          sql`INSERT INTO ledger_postings (transaction_id, ledger_account_id, currency, amount) VALUES ${values}`,
        );
        return;
      }
      const changes = sql.join(
        balances.map((b) => sql`(${b.id}::int, ${b.delta}::bigint)`),
        sql`, `,
      );
      await tx.execute(
        sql`WITH inserted AS (
              INSERT INTO ledger_postings (transaction_id, ledger_account_id, currency, amount) VALUES ${values}
            )
            UPDATE ledger_accounts SET balance = ledger_accounts.balance + c.delta
            FROM (VALUES ${changes}) AS c(id, delta) WHERE ledger_accounts.id = c.id`,
      );
    },

    /**
     * Adds to the platform's kept balances, its rows locked in id order (after the owners' rows: every
     * posting takes them in that order, so two never wait on each other in a circle). It runs last in the
     * posting's transaction, so a busy platform account (revenue, cash) is held only until the commit.
     */
    async addToPlatformBalances(tx: Database, changes: { id: number; delta: number }[]): Promise<void> {
      if (changes.length === 0) return;
      await lockAccounts(
        tx,
        changes.map((change) => change.id),
        "no key update",
      );
      const values = sql.join(
        changes.map((c) => sql`(${c.id}::int, ${c.delta}::bigint)`),
        sql`, `,
      );
      await tx.execute(
        sql`UPDATE ledger_accounts SET balance = ledger_accounts.balance + c.delta
            FROM (VALUES ${values}) AS c(id, delta) WHERE ledger_accounts.id = c.id`,
      );
    },

    /** An owner's accounts with their kept balances. */
    async ownerAccounts(owner: number) {
      return db
        .select({
          id: ledgerAccounts.id,
          kind: ledgerAccounts.kind,
          currency: ledgerAccounts.currency,
          balance: ledgerAccounts.balance,
        })
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.ownerAccountId, owner));
    },

    /** The owner's latest transactions with their postings on the owner's own accounts. */
    async recentTransactions(owner: number, limit: number, before?: number) {
      const rows = await db
        .select()
        .from(ledgerTransactions)
        .where(
          and(
            eq(ledgerTransactions.ownerAccountId, owner),
            before !== undefined ? lt(ledgerTransactions.id, before) : undefined,
          ),
        )
        .orderBy(desc(ledgerTransactions.id))
        .limit(limit);
      if (rows.length === 0) return [];
      const postings = await db
        .select({
          transactionId: ledgerPostings.transactionId,
          kind: ledgerAccounts.kind,
          currency: ledgerPostings.currency,
          amount: ledgerPostings.amount,
        })
        .from(ledgerPostings)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.ledgerAccountId))
        .where(
          and(
            inArray(
              ledgerPostings.transactionId,
              rows.map((r) => r.id),
            ),
            eq(ledgerAccounts.ownerAccountId, owner),
          ),
        );
      return rows.map((row) => ({
        ...row,
        postings: postings.filter((p) => p.transactionId === row.id),
      }));
    },

    /** Sums every posting per currency (zero when the ledger is whole) and counts them. */
    async totals() {
      return executeRows<{ currency: string; sum: string; postings: number }>(
        db,
        sql`SELECT currency, coalesce(sum(amount), 0)::text AS sum, count(*)::int AS postings
            FROM ledger_postings GROUP BY currency`,
      );
    },

    /** Accounts whose kept balance differs from the sum of their postings (none when whole). */
    async driftedAccounts() {
      return executeRows<{ id: number; balance: string; posted: string }>(
        db,
        sql`SELECT a.id, a.balance::text AS balance, coalesce(sum(p.amount), 0)::text AS posted
            FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
            GROUP BY a.id HAVING a.balance <> coalesce(sum(p.amount), 0)`,
      );
    },
  };
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
