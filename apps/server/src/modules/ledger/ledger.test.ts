import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { createTestDatabase } from "../../../test/helpers.ts";
import { type DatabaseHandle, executeRows } from "../../db/client.ts";
import { migrationsFolder } from "../../db/migrate.ts";
import { createLedgerService, InsufficientFundsError, type LedgerService } from "./ledger.service.ts";
import { createWithdrawals, type Withdrawals } from "./withdrawals.ts";

let database: DatabaseHandle;
let ledger: LedgerService;
let withdrawals: Withdrawals;
let nextOwner = 1000;

beforeAll(async () => {
  // Hundreds of transactions queue on one balance row: on a busy machine the last waits longer for a
  // connection than a request would (POOL_WAIT_MS); here only the balance is under test.
  database = await createTestDatabase({ connectionTimeoutMillis: 120_000 });
  ledger = createLedgerService(database.db);
  withdrawals = createWithdrawals(database.db, ledger);
});
afterAll(async () => {
  await database.close();
});

const topUp = (owner: number, cents: number, key: string) =>
  ledger.post({
    idempotencyKey: key,
    kind: "topup.card",
    ownerAccountId: owner,
    postings: [
      { account: ledger.platform("cash:card"), amount: -cents },
      { account: ledger.wallet(owner), amount: cents },
    ],
  });

const debit = (owner: number, cents: number, key: string) =>
  ledger.post({
    idempotencyKey: key,
    kind: "usage",
    ownerAccountId: owner,
    postings: [
      { account: ledger.wallet(owner), amount: -cents },
      { account: ledger.platform("revenue:usage"), amount: cents },
    ],
  });

/** The database's own message (Drizzle wraps it as the cause of "Failed query"). */
async function databaseRefusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return `${(error as Error).message} ${cause?.message ?? ""}`;
  }
  throw new Error("the database accepted it");
}

async function expectWhole() {
  const audit = await ledger.audit();
  for (const sum of Object.values(audit.sums)) expect(sum).toBe(0);
  expect(audit.drifted).toEqual([]);
}

describe("ledger", () => {
  it("credits a wallet, and a replayed key changes nothing", async () => {
    const owner = nextOwner++;
    const first = await topUp(owner, 2500, `t-${owner}`);
    expect(first.replayed).toBe(false);
    const again = await topUp(owner, 2500, `t-${owner}`);
    expect(again).toEqual({ transactionId: first.transactionId, replayed: true });
    expect((await ledger.balances(owner)).usd.available).toBe(2500);
    const listed = await ledger.recentTransactions(owner, 10);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.postings).toEqual([
      expect.objectContaining({ kind: "wallet", currency: "usd", amount: 2500 }),
    ]);
    await expectWhole();
  });

  it("refuses a debit beyond the balance and writes nothing; the key stays usable", async () => {
    const owner = nextOwner++;
    await topUp(owner, 500, `t-${owner}`);
    await expect(debit(owner, 501, `d-${owner}`)).rejects.toBeInstanceOf(InsufficientFundsError);
    expect((await ledger.balances(owner)).usd.available).toBe(500);
    expect(await ledger.recentTransactions(owner, 10)).toHaveLength(1);
    await topUp(owner, 1, `t2-${owner}`);
    expect((await debit(owner, 501, `d-${owner}`)).replayed).toBe(false);
    expect((await ledger.balances(owner)).usd.available).toBe(0);
    await expectWhole();
  });

  it("refuses a transaction that does not sum to zero per currency", async () => {
    const owner = nextOwner++;
    await expect(
      ledger.post({
        idempotencyKey: `bad-${owner}`,
        kind: "bad",
        ownerAccountId: owner,
        postings: [
          { account: ledger.platform("cash:lightning", "sat"), amount: -1000 },
          { account: ledger.wallet(owner), amount: 1000 },
        ],
      }),
    ).rejects.toThrow(/does not sum to zero/);
    // Across currencies through the exchange account it balances: sats in, cents out.
    await ledger.post({
      idempotencyKey: `fx-${owner}`,
      kind: "topup.lightning",
      ownerAccountId: owner,
      postings: [
        { account: ledger.platform("cash:lightning", "sat"), amount: -1000 },
        { account: ledger.platform("fx", "sat"), amount: 1000 },
        { account: ledger.platform("fx", "usd"), amount: -43 },
        { account: ledger.wallet(owner), amount: 43 },
      ],
    });
    expect((await ledger.balances(owner)).usd.available).toBe(43);
    await expectWhole();
  });

  it("the database itself refuses unbalanced postings at commit, and any change to a posting", async () => {
    const owner = nextOwner++;
    const wallet = await ledger.accountId(ledger.wallet(owner));
    expect(
      await databaseRefusal(
        database.db.transaction(async (tx) => {
          const [row] = (
            (await tx.execute(
              sql`INSERT INTO ledger_transactions (idempotency_key, kind) VALUES (${`raw-${owner}`}, 'raw') RETURNING id`,
            )) as unknown as { rows: { id: number }[] }
          ).rows;
          await tx.execute(
            sql`INSERT INTO ledger_postings (transaction_id, ledger_account_id, currency, amount) VALUES (${row?.id}, ${wallet}, 'usd', 100)`,
          );
        }),
      ),
    ).toMatch(/does not sum to zero/);
    await topUp(owner, 100, `t-${owner}`);
    expect(
      await databaseRefusal(database.db.execute(sql`UPDATE ledger_postings SET amount = amount * 2`)),
    ).toMatch(/append-only/);
    expect(await databaseRefusal(database.db.execute(sql`DELETE FROM ledger_transactions`))).toMatch(
      /append-only/,
    );
    expect(
      await databaseRefusal(
        database.db.execute(sql`UPDATE ledger_accounts SET balance = -1 WHERE id = ${wallet}`),
      ),
    ).toMatch(/ledger_accounts_floor/);
    await expectWhole();
  });

  it("holds a withdrawal, then settles or releases it exactly once", async () => {
    const owner = nextOwner++;
    await topUp(owner, 1000, `t-${owner}`);
    const { withdrawal } = await withdrawals.hold({
      idempotencyKey: `w1-${owner}`,
      owner,
      method: "paypal",
      address: "a@example.com",
      amountCents: 600,
    });
    expect(await ledger.balances(owner)).toMatchObject({ usd: { available: 400, held: 600 } });
    await expect(
      withdrawals.hold({
        idempotencyKey: `w2-${owner}`,
        owner,
        method: "ln",
        address: "x",
        amountCents: 401,
      }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    const replay = await withdrawals.hold({
      idempotencyKey: `w1-${owner}`,
      owner,
      method: "paypal",
      address: "a@example.com",
      amountCents: 600,
    });
    expect(replay).toMatchObject({ replayed: true, withdrawal: { id: withdrawal.id } });
    expect(await withdrawals.settle(withdrawal, "PAYOUT-1")).toBe(true);
    // Settling again, or releasing a settled one, moves nothing.
    expect(await withdrawals.settle(withdrawal)).toBe(false);
    expect(await withdrawals.release(withdrawal, "late failure")).toBe(false);
    expect(await ledger.balances(owner)).toMatchObject({ usd: { available: 400, held: 0 } });

    const second = await withdrawals.hold({
      idempotencyKey: `w3-${owner}`,
      owner,
      method: "ln",
      address: "lnbc...",
      amountCents: 400,
    });
    expect(await withdrawals.release(second.withdrawal, "no route")).toBe(true);
    expect(await ledger.balances(owner)).toMatchObject({ usd: { available: 400, held: 0 } });
    expect(await withdrawals.byId(second.withdrawal.id)).toMatchObject({
      status: "released",
      failureReason: "no route",
    });
    await expectWhole();
  });

  it(
    `never overdraws under concurrent debits and withdrawals (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`,
    async () => {
      const owner = nextOwner++;
      // On PGlite (one connection) the requests queue anyway: fewer keep the file quick there.
      const attempts = process.env.DATABASE_URL ? 300 : 90;
      const funds = attempts * 23;
      await topUp(owner, funds, `t-${owner}`);
      const outcomes = await Promise.allSettled(
        Array.from({ length: attempts }, (_, i) =>
          i % 3 === 0
            ? withdrawals.hold({
                idempotencyKey: `cw-${owner}-${i}`,
                owner,
                method: "ln",
                address: "lnbc",
                amountCents: 70,
              })
            : debit(owner, 70, `cd-${owner}-${i}`),
        ),
      );
      const failures = outcomes.filter((o) => o.status === "rejected");
      for (const f of failures)
        expect((f as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientFundsError);
      const succeeded = attempts - failures.length;
      expect(succeeded).toBe(Math.floor(funds / 70));
      const balances = await ledger.balances(owner);
      expect(balances.usd.available).toBe(funds - succeeded * 70);
      expect(balances.usd.available).toBeGreaterThanOrEqual(0);
      // Replaying every request with its key changes nothing.
      await Promise.allSettled(
        Array.from({ length: attempts }, (_, i) =>
          i % 3 === 0
            ? withdrawals.hold({
                idempotencyKey: `cw-${owner}-${i}`,
                owner,
                method: "ln",
                address: "lnbc",
                amountCents: 70,
              })
            : debit(owner, 70, `cd-${owner}-${i}`),
        ),
      );
      expect(await ledger.balances(owner)).toEqual(balances);
      expect(await ledger.recentTransactions(owner, 1000)).toHaveLength(1 + succeeded);
      await expectWhole();
    },
    within(120_000),
  );

  it(
    `keeps every account's balance, the platform's too, equal to the sum of its postings (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`,
    async () => {
      const [a, b] = [nextOwner++, nextOwner++];
      await topUp(a, 5000, `mix-t-${a}`);
      await ledger.post({
        idempotencyKey: `mix-ln-${b}`,
        kind: "topup.lightning",
        ownerAccountId: b,
        postings: [
          { account: ledger.platform("cash:lightning", "sat"), amount: -20_000 },
          { account: ledger.platform("fx", "sat"), amount: 20_000 },
          { account: ledger.platform("fx"), amount: -1200 },
          { account: ledger.wallet(b), amount: 1200 },
        ],
      });
      await ledger.post({
        idempotencyKey: `mix-sub-${a}`,
        kind: "subscription",
        ownerAccountId: a,
        postings: [
          { account: ledger.wallet(a), amount: -900 },
          { account: ledger.platform("revenue:subscription"), amount: 900 },
        ],
      });
      await ledger.post({
        idempotencyKey: `mix-refund-${b}`,
        kind: "refund",
        ownerAccountId: b,
        postings: [
          { account: ledger.platform("expense:refunds"), amount: -300 },
          { account: ledger.wallet(b), amount: 300 },
        ],
      });
      const { withdrawal } = await withdrawals.hold({
        idempotencyKey: `mix-w-${a}`,
        owner: a,
        method: "paypal",
        address: "a@example.com",
        amountCents: 700,
      });
      await withdrawals.settle(withdrawal, "PAYOUT-MIX");
      // Many postings at once on the same platform accounts, from two owners, with replays among them.
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 4 === 0
            ? topUp(i % 8 === 0 ? a : b, 50, `mix-ct-${a}-${i % 20}`)
            : debit(i % 2 ? a : b, 10, `mix-cd-${a}-${i}`),
        ),
      );

      const accounts = await executeRows<{
        kind: string;
        owner: number | null;
        balance: string;
        posted: string;
      }>(
        database.db,
        sql`SELECT a.kind, a.owner_account_id AS owner, a.balance::text AS balance,
            coalesce(sum(p.amount), 0)::text AS posted
          FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.ledger_account_id = a.id
          GROUP BY a.id ORDER BY a.id`,
      );
      expect(accounts.filter((row) => row.balance !== row.posted)).toEqual([]);
      const platform = accounts.filter((row) => row.owner === null);
      expect(platform.map((row) => row.kind)).toEqual(
        expect.arrayContaining([
          "cash:card",
          "revenue:usage",
          "revenue:subscription",
          "expense:refunds",
          "fx",
          "payouts",
        ]),
      );
      expect(platform.every((row) => row.posted !== "0")).toBe(true);
      await expectWhole();
    },
    within(120_000),
  );

  it("migration 0030 sets the platform balances an earlier release left at zero to their postings' sum", async () => {
    const owner = nextOwner++;
    await topUp(owner, 800, `mig-t-${owner}`);
    await debit(owner, 300, `mig-d-${owner}`);
    await database.db.execute(sql`UPDATE ledger_accounts SET balance = 0 WHERE owner_account_id IS NULL`);
    expect((await ledger.audit()).drifted.length).toBeGreaterThan(0);
    const migration = readFileSync(path.join(migrationsFolder, "0030_platform_ledger_balances.sql"), "utf8");
    await database.db.execute(sql.raw(migration));
    await expectWhole();
  });
});
