import { randomBytes } from "node:crypto";
import { LOAD_MESSAGES, WITHDRAW_MESSAGES } from "@switchboard/api";
import Fastify, { type FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildHierarchy } from "../../test/fixtures.ts";
import { buildTestApp, testConfig } from "../../test/helpers.ts";
import { postgresTemplateName, withDatabase } from "../../test/template-database.ts";
import { buildApp } from "../app.ts";
import { openPostgres } from "../db/client.ts";
import { issueSessionToken } from "../modules/auth/sessions.ts";
import { installErrorHandler } from "./error-handler.ts";
import { createKeyedGate } from "./keyed-gate.ts";
import { createRateLimit, RetryLater } from "./rate-limit.ts";

const ORIGIN = "http://127.0.0.1:3000";

describe("a rate limit (token bucket per key)", () => {
  it("allows the burst, then one call per refill, and says how long to wait", () => {
    let clock = 0;
    const limit = createRateLimit({ burst: 3, perSecond: 0.5 }, { now: () => clock });
    expect([limit.take("a"), limit.take("a"), limit.take("a")]).toEqual([null, null, null]);
    expect(limit.take("a")).toBe(2);
    expect(limit.take("b")).toBeNull();
    clock += 2000;
    expect(limit.take("a")).toBeNull();
    expect(limit.take("a")).toBe(2);
  });
});

describe("the keyed gate (an organisation's money movements)", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("runs one at a time per key, keys side by side, and frees the place however the work ends", async () => {
    const gate = createKeyedGate({ concurrency: 1, queue: 10, waitMs: 5000 });
    const running = new Map<string, number>();
    let most = 0;
    const work = (key: string, fail = false) =>
      gate.run(key, async () => {
        running.set(key, (running.get(key) ?? 0) + 1);
        most = Math.max(most, running.get(key) ?? 0);
        await sleep(5);
        running.set(key, (running.get(key) ?? 0) - 1);
        if (fail) throw new Error("failed");
        return key;
      });
    const started = Date.now();
    const results = await Promise.allSettled([
      ...Array.from({ length: 6 }, (_, i) => work("org-1", i === 2)),
      ...Array.from({ length: 6 }, () => work("org-2")),
    ]);
    expect(most).toBe(1);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(6 * 5 * 2 + 200);
    expect(gate.busyKeys).toBe(0);
  });

  it("refuses one more than the queue holds at once (429), and a wait too long (503), with Retry-After", async () => {
    const gate = createKeyedGate({ concurrency: 1, queue: 2, waitMs: 50 });
    const slow = () => gate.run("org", () => sleep(200));
    const outcomes = await Promise.allSettled([slow(), slow(), slow(), slow()]);
    const refusals = outcomes.map((o) => (o.status === "rejected" ? (o.reason as RetryLater) : null));
    expect(refusals[0]).toBeNull();
    // The two queued gave up after 50 ms; the fourth found the queue full.
    expect(refusals.slice(1).map((r) => r?.statusCode)).toEqual([503, 503, 429]);
    expect(refusals[3]).toBeInstanceOf(RetryLater);
    expect(refusals[3]?.message).toBe(LOAD_MESSAGES.organisationBusy);
    expect(refusals.slice(1).every((r) => (r?.retryAfterSeconds ?? 0) >= 1)).toBe(true);
    expect(gate.busyKeys).toBe(0);
  });
});

describe("the error handler when the database has no connection free", () => {
  it("answers 503 with Retry-After for the pool's timeout, even wrapped by Drizzle; other errors stay 500", async () => {
    const app = Fastify({ logger: false });
    installErrorHandler(app);
    app.get("/busy", async () => {
      throw Object.assign(new Error("Failed query: select 1\nparams: "), {
        cause: new Error("timeout exceeded when trying to connect"),
      });
    });
    app.get("/full", async () => {
      throw Object.assign(new Error("sorry, too many clients already"), { code: "53300" });
    });
    app.get("/broken", async () => {
      throw new Error("something else");
    });
    for (const url of ["/busy", "/full"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers["retry-after"]).toBe("2");
      expect(res.json()).toEqual({ success: false, message: LOAD_MESSAGES.busy });
    }
    expect((await app.inject({ method: "GET", url: "/broken" })).statusCode).toBe(500);
    await app.close();
  });
});

describe("limits on the costly calls", () => {
  let app: FastifyInstance;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;
  beforeAll(async () => {
    app = await buildTestApp({ PUBLIC_URL: ORIGIN });
    world = await buildHierarchy(app);
  });
  afterAll(async () => {
    await app.close();
  });

  let hosts = 0;
  /** A call from its own IPv4 address unless one is given. */
  const call = (url: string, token: string, remoteAddress = `10.77.${hosts >> 8}.${hosts++ & 255}`) =>
    app.inject({ method: "GET", url: `${url}${url.includes("?") ? "&" : "?"}token=${token}`, remoteAddress });

  const invoice = async () => {
    const node = app.wallet.sandboxNode;
    if (!node) throw new Error("sandbox node");
    return (await node.receive(1000, "limits")).paymentRequest;
  };

  it("validateInvoice: 20 at once per token, then 429 with Retry-After; another token is not held back", async () => {
    const text = await invoice();
    const url = `/api/v1/validateInvoice?invoice=${text}`;
    const token = world.members.o1Owner.token;
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(url, token)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(20);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]?.json()).toEqual({ success: false, message: LOAD_MESSAGES.tooManyRequests });
    expect(Number(refused[0]?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const other = await call(url, world.members.o2Owner.token);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ valid: true, amountSats: 1000 });
  });

  it("counts an IPv6 client by its /64: new addresses in it do not buy more calls; another /64 does", async () => {
    const text = await invoice();
    const url = `/api/v1/validateInvoice?invoice=${text}`;
    const tokens = await Promise.all(
      Array.from({ length: 4 }, () =>
        issueSessionToken(app.context.database.db, world.members.uOwner.userId, world.accounts.U.id),
      ),
    );
    // Four tokens (20 calls each) from 70 addresses of one /64: the network's 60 go through, no more. The
    // network's allowance refills 3 a second, and on a busy machine the 70 calls take long enough to earn a
    // few more: the clock stands still while they run.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const answers = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        call(url, tokens[i % 4] as string, `2001:db8:7:64:${(i + 1).toString(16)}::1`),
      ),
    ).finally(() => vi.useRealTimers());
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(60);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10);
    const elsewhere = await call(url, world.members.p1Owner.token, "2001:db8:7:65::1");
    expect(elsewhere.statusCode).not.toBe(429);
  });

  it("decodes an invoice once however often it is sent; a bad one's reason is kept too", async () => {
    const text = await invoice();
    const decode = app.wallet.wallet.decodeInvoice;
    expect(decode(text)).toBe(decode(` lightning:${text.toUpperCase()} `));
    expect(() => decode("lnbc1notaninvoice")).toThrow();
    expect(() => decode("lnbc1notaninvoice")).toThrow();
  });

  it("an organisation's money movements wait their turn in the process, in a bounded queue; others go on", async () => {
    const { ledger } = app.wallet;
    const credit = (owner: number, cents: number) =>
      ledger.post({
        idempotencyKey: `limits-credit-${owner}-${cents}`,
        kind: "topup.card",
        ownerAccountId: owner,
        postings: [
          { account: ledger.platform("cash:card"), amount: -cents },
          { account: ledger.wallet(owner), amount: cents },
        ],
      });
    const org = world.accounts.O2.id;
    await credit(org, 10_000);
    await credit(world.accounts.U.id, 1000);
    const tokens = await Promise.all(
      Array.from({ length: 3 }, () =>
        issueSessionToken(app.context.database.db, world.members.o2Owner.userId, org),
      ),
    );
    const payout = (token: string, address: string) =>
      app.inject({
        method: "POST",
        url: `/api/v1/payout/paypal/paypal?token=${token}`,
        remoteAddress: `10.99.${hosts >> 8}.${hosts++ & 255}`,
        payload: { address, amountUsd: 1 },
      });
    // Something of the organisation's is moving money: its payouts queue behind it.
    let finish = () => {};
    const moving = app.context.limits.money.run(
      org,
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    const queued = Array.from({ length: 51 }, (_, i) => payout(tokens[i % 3] as string, `q${i}@example.com`));
    const first = await Promise.race(queued);
    expect(first.statusCode).toBe(429);
    expect(first.json().message).toBe(LOAD_MESSAGES.organisationBusy);
    expect(first.headers["retry-after"]).toBe("1");
    // Another organisation is not held up by it.
    const other = await payout(world.members.uOwner.token, "u@example.com");
    expect(other.statusCode).toBe(200);
    finish();
    await moving;
    const statuses = (await Promise.all(queued)).map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const balance = (
      await app.inject({ method: "GET", url: `/api/v1/recentTransactions?token=${tokens[0]}` })
    ).json().balance;
    expect(balance).toMatchObject({ availableCents: 5000 });
  });

  it("200 withdrawals to one invoice at once: one held, the others refused (409 or 429), none 5xx", async () => {
    const org = world.accounts.O1.id;
    const { ledger } = app.wallet;
    await ledger.post({
      idempotencyKey: `limits-topup-${org}`,
      kind: "topup.card",
      ownerAccountId: org,
      postings: [
        { account: ledger.platform("cash:card"), amount: -5000 },
        { account: ledger.wallet(org), amount: 5000 },
      ],
    });
    const text = (await app.wallet.sandboxNode?.receive(20_000, "one invoice"))?.paymentRequest ?? "";
    // Ten sessions of the owner, each request from its own address: only the organisation's gate and the
    // ledger stand between them.
    const tokens = await Promise.all(
      Array.from({ length: 10 }, () =>
        issueSessionToken(app.context.database.db, world.members.o1Owner.userId, org),
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        app.inject({
          method: "POST",
          url: `/api/v1/requestWithdrawal?token=${tokens[i % 10]}`,
          remoteAddress: `10.88.${i >> 8}.${i & 255}`,
          payload: { address: text, type: "ln" },
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200 && s !== 409 && s !== 429)).toEqual([]);
    for (const refused of answers.filter((a) => a.statusCode === 409))
      expect(refused.json().message).toBe(WITHDRAW_MESSAGES.invoiceUsed);
    for (const busy of answers.filter((a) => a.statusCode === 429))
      expect(Number(busy.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(app.context.limits.money.busyKeys).toBe(0);
    const audit = await ledger.audit();
    expect(audit.sums.usd ?? 0).toBe(0);
    expect(audit.drifted).toEqual([]);
  });
});

// A pool is PostgreSQL's: PGlite is one connection in the process. CI runs the server suite again with
// DATABASE_URL, where this runs.
describe.skipIf(!process.env.DATABASE_URL)("a PostgreSQL pool with every connection taken", () => {
  const serverUrl = process.env.DATABASE_URL ?? "";
  const name = `sb_test_${randomBytes(6).toString("hex")}`;
  let app: FastifyInstance;
  let pool: pg.Pool;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}" template "${postgresTemplateName()}"`);
    await admin.end();
    const database = await openPostgres(withDatabase(serverUrl, name), {
      poolSize: 2,
      connectionTimeoutMillis: 1000,
    });
    if (database.driver.kind !== "postgres") throw new Error("postgres");
    pool = database.driver.pool;
    app = await buildApp(testConfig({ PUBLIC_URL: ORIGIN }), { database });
  });
  afterAll(async () => {
    await app?.close();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it("answers 503 with Retry-After (not 500) while none comes free, and serves again once one does", async () => {
    const world = await buildHierarchy(app);
    const url = `/api/v1/recentTransactions?token=${world.members.o1Owner.token}`;
    // One of the two listens for notifications from the start; the test takes the other.
    const free = pool.idleCount + (2 - pool.totalCount);
    expect(free).toBe(1);
    const taken = [await pool.connect()];
    let answer: Awaited<ReturnType<FastifyInstance["inject"]>>;
    try {
      answer = await app.inject({ method: "GET", url });
    } finally {
      for (const client of taken) client.release();
    }
    expect(answer.statusCode).toBe(503);
    expect(answer.headers["retry-after"]).toBe("2");
    expect(answer.json()).toEqual({ success: false, message: LOAD_MESSAGES.busy });
    expect((await app.inject({ method: "GET", url })).statusCode).toBe(200);
  });
});
