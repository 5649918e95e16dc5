// The ledger (issue 21): 1,000 concurrent debits and withdrawals against one wallet on PostgreSQL, through the
// one posting function (apps/server/src/modules/ledger/). The wallet holds enough for 60% of them, so the
// rest must be refused. Checks: 0 overdrafts (the wallet never below zero, exactly as many succeed as the
// balance allows), 0 lost or doubled postings (postings = 2 per success + the top-up, the kept balance equals
// the sum of its postings), the ledger sums to zero per currency, and replaying every request with its
// idempotency key changes nothing. Then the withdrawals on hold are settled or released, concurrently.
// Figures: postings per second on one contended wallet, and spread over 50 wallets.
//
// Needs a PostgreSQL server: BENCH_DATABASE_URL or DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; the bench creates and drops its own database sb_bench_ledger.
// BENCH_SIZE=smoke: 200 requests on PGlite (one connection: no real concurrency, same checks).

import { rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { type DatabaseHandle, openPglite, openPostgres } from "../apps/server/src/db/client.ts";
import { migrateDatabase } from "../apps/server/src/db/migrate.ts";
import {
  createLedgerService,
  InsufficientFundsError,
} from "../apps/server/src/modules/ledger/ledger.service.ts";
import { createWithdrawals } from "../apps/server/src/modules/ledger/withdrawals.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const REQUESTS = SMOKE ? 200 : 1000;
const AMOUNT = 100; // cents per debit or withdrawal
const FUNDED = Math.floor(REQUESTS * 0.6);
const SPREAD_WALLETS = 50;
const DB_NAME = "sb_bench_ledger";

const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const DATA_DIR = path.resolve(import.meta.dirname, "..", ".tmp/bench-ledger");

async function open(): Promise<DatabaseHandle> {
  if (SMOKE) {
    await rm(DATA_DIR, { recursive: true, force: true });
    return openPglite({ dataDir: path.join(DATA_DIR, "pglite") });
  }
  await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
  await adminQuery(`create database ${DB_NAME}`);
  const url = new URL(serverUrl);
  url.pathname = `/${DB_NAME}`;
  return openPostgres(url.toString(), { connectionTimeoutMillis: 120_000 });
}

const database = await open();
let failed = false;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};

try {
  await migrateDatabase(database);
  const ledger = createLedgerService(database.db);
  const withdrawals = createWithdrawals(database.db, ledger);
  const owner = 1;

  await ledger.post({
    idempotencyKey: "bench-topup",
    kind: "topup.card",
    ownerAccountId: owner,
    postings: [
      { account: ledger.platform("cash:card"), amount: -FUNDED * AMOUNT },
      { account: ledger.wallet(owner), amount: FUNDED * AMOUNT },
    ],
  });

  const request = (i: number) =>
    i % 2 === 0
      ? ledger.post({
          idempotencyKey: `bench-debit-${i}`,
          kind: "usage",
          ownerAccountId: owner,
          postings: [
            { account: ledger.wallet(owner), amount: -AMOUNT },
            { account: ledger.platform("revenue:usage"), amount: AMOUNT },
          ],
        })
      : withdrawals.hold({
          idempotencyKey: `bench-withdraw-${i}`,
          owner,
          method: "ln",
          address: "bench",
          amountCents: AMOUNT,
        });

  const started = performance.now();
  const outcomes = await Promise.allSettled(Array.from({ length: REQUESTS }, (_, i) => request(i)));
  const seconds = (performance.now() - started) / 1000;
  const refused = outcomes.filter((o) => o.status === "rejected");
  const otherErrors = refused.filter(
    (o) => !((o as PromiseRejectedResult).reason instanceof InsufficientFundsError),
  );
  const succeeded = REQUESTS - refused.length;
  const balance = await ledger.balances(owner);
  let audit = await ledger.audit();

  console.log(
    `${REQUESTS} concurrent debits and withdrawals of ${AMOUNT} cents against one wallet of ${FUNDED * AMOUNT} cents ` +
      `(${database.kind}): ${succeeded} succeeded, ${refused.length} refused for lack of funds, in ${seconds.toFixed(2)} s`,
  );
  check(otherErrors.length === 0, `no request failed otherwise (${otherErrors.length})`);
  const overdrafts = balance.usd.available < 0 || succeeded > FUNDED ? 1 : 0;
  check(
    overdrafts === 0,
    `overdrafts: ${overdrafts} (available ${balance.usd.available}, held ${balance.usd.held})`,
  );
  check(succeeded === FUNDED, `exactly the funded ${FUNDED} succeeded`);
  const expectedPostings = 2 + 2 * succeeded;
  check(
    audit.postings === expectedPostings && audit.drifted.length === 0,
    `lost or doubled postings: ${Math.abs(audit.postings - expectedPostings)} (postings ${audit.postings}, drifted balances ${audit.drifted.length})`,
  );
  check(
    Object.values(audit.sums).every((sum) => sum === 0),
    `the ledger sums to zero: ${JSON.stringify(audit.sums)}`,
  );
  reportFigure({
    bench: "ledger",
    name: "overdrafts",
    value: overdrafts,
    unit: "wallets",
    target: 0,
    better: "lower",
  });
  reportFigure({
    bench: "ledger",
    name: "requests failed otherwise",
    value: otherErrors.length,
    unit: "requests",
    target: 0,
    better: "lower",
  });
  const postingsPerSecond = (2 * succeeded) / seconds;
  reportFigure({
    bench: "ledger",
    name: "postings, one contended wallet",
    value: postingsPerSecond,
    unit: "postings/s",
    better: "higher",
  });
  console.log(
    `throughput, one contended wallet: ${postingsPerSecond.toFixed(0)} postings/s (${(succeeded / seconds).toFixed(0)} transactions/s)`,
  );

  // Replays: every request again with its key.
  const replays = await Promise.allSettled(Array.from({ length: REQUESTS }, (_, i) => request(i)));
  const afterReplay = await ledger.balances(owner);
  audit = await ledger.audit();
  const replayed = replays.filter(
    (o) => o.status === "fulfilled" && (o.value as { replayed: boolean }).replayed,
  ).length;
  check(
    JSON.stringify(afterReplay) === JSON.stringify(balance) && audit.postings === expectedPostings,
    `idempotent replay changes nothing: ${replayed} answered as replays, postings still ${audit.postings}`,
  );

  // Settle half the holds and release the others, concurrently, and each twice.
  const held = (
    await database.db.query.walletWithdrawals.findMany({ where: (w, { eq }) => eq(w.ownerAccountId, owner) })
  ).filter((w) => w.status === "pending");
  const finishes = await Promise.allSettled(
    held.flatMap((w, i) => [
      i % 2 === 0 ? withdrawals.settle(w, `payout-${w.id}`) : withdrawals.release(w, "bench"),
      i % 2 === 0 ? withdrawals.settle(w, `payout-${w.id}`) : withdrawals.release(w, "bench"),
    ]),
  );
  const moved = finishes.filter((o) => o.status === "fulfilled" && o.value === true).length;
  const released = held.filter((_, i) => i % 2 === 1).length;
  const final = await ledger.balances(owner);
  audit = await ledger.audit();
  check(moved === held.length, `each of ${held.length} holds finished exactly once (${moved} moves)`);
  check(
    final.usd.held === 0 && final.usd.available === balance.usd.available + released * AMOUNT,
    `after settling and releasing: available ${final.usd.available}, held ${final.usd.held}`,
  );
  check(
    Object.values(audit.sums).every((sum) => sum === 0) && audit.drifted.length === 0,
    `still sums to zero, no drift: ${JSON.stringify(audit.sums)}`,
  );

  // Throughput spread over many wallets (no shared lock).
  for (let w = 0; w < SPREAD_WALLETS; w++)
    await ledger.post({
      idempotencyKey: `spread-topup-${w}`,
      kind: "topup.card",
      ownerAccountId: 100 + w,
      postings: [
        { account: ledger.platform("cash:card"), amount: -REQUESTS * AMOUNT },
        { account: ledger.wallet(100 + w), amount: REQUESTS * AMOUNT },
      ],
    });
  const spreadStart = performance.now();
  await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) =>
      ledger.post({
        idempotencyKey: `spread-${i}`,
        kind: "usage",
        ownerAccountId: 100 + (i % SPREAD_WALLETS),
        postings: [
          { account: ledger.wallet(100 + (i % SPREAD_WALLETS)), amount: -AMOUNT },
          { account: ledger.platform("revenue:usage"), amount: AMOUNT },
        ],
      }),
    ),
  );
  const spreadSeconds = (performance.now() - spreadStart) / 1000;
  reportFigure({
    bench: "ledger",
    name: `postings over ${SPREAD_WALLETS} wallets`,
    value: (2 * REQUESTS) / spreadSeconds,
    unit: "postings/s",
    better: "higher",
  });
  console.log(
    `throughput, ${REQUESTS} debits over ${SPREAD_WALLETS} wallets: ${((2 * REQUESTS) / spreadSeconds).toFixed(0)} postings/s`,
  );
} finally {
  await database.close();
  if (!SMOKE) await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
}
if (failed) process.exit(1);
