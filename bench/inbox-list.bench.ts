// The inbox list (issue 7): GET /api/v1/conversations, a page of 20 with each room's last message and the
// caller's unread count, through the whole server (authorisation, the list query, response check), with
// 100,000 rooms and 1,000,000 messages in PostgreSQL (100 organisations of 1,000 rooms, 10 messages each,
// about half of each owner's rooms read). The server runs as deployed: apps/server/src/server.ts in a child
// process of its own (NODE_ENV=production, LOG_LEVEL=warn); the bare Fastify route runs in another child
// process; 50 concurrent clients (a worker thread of this process, node:http with keep-alive) load one,
// then the other, for DURATION seconds each, so neither server shares a thread with the clients and the
// ratio compares like with like.
// Targets: p95 under 25 ms; inbox throughput at least 0.3 of the bare route's. While the inbox is loaded,
// new inbound texts are stored (BENCH_WRITES_PER_S, default 50/s, 0 for none; full size only), so the
// server's page cache and session cache (db/notice-cache.ts) are measured as they run: pages go stale as
// messages arrive.
//
// Full size needs a PostgreSQL server: BENCH_DATABASE_URL or DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; the bench creates and drops its own database sb_bench_inbox
// (BENCH_KEEP=1 keeps it; BENCH_REUSE=1 then reuses it without seeding again).
// BENCH_SIZE=smoke: 2,000 rooms and 20,000 messages on PGlite, 2 seconds per route. BENCH_NODE_ARGS passes
// flags to the server's Node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to see where its time goes).

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { eq, like } from "drizzle-orm";
import pg from "pg";
import { type DatabaseHandle, openPglite, openPostgres } from "../apps/server/src/db/client.ts";
import { migrateDatabase } from "../apps/server/src/db/migrate.ts";
import { memberships, users } from "../apps/server/src/db/schema/index.ts";
import { createAccountsRepository } from "../apps/server/src/modules/accounts/accounts.repository.ts";
import { issueSessionToken } from "../apps/server/src/modules/auth/sessions.ts";
import { rateFromEnv, writePaced } from "./paced-writes.ts";
import { databaseExists } from "./postgres-server.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const ORGS = SMOKE ? 4 : 100;
const ROOMS_PER_ORG = SMOKE ? 500 : 1000;
const MESSAGES_PER_ROOM = 10;
const CONCURRENCY = 50;
const DURATION_S = SMOKE ? 2 : Number(process.env.BENCH_DURATION_S ?? 10);
const TARGET_P95_MS = 25;
/** Inbound texts per second stored while the inbox list is loaded (full size); 0: none. */
const WRITES_PER_S = rateFromEnv("BENCH_WRITES_PER_S", process.env.BENCH_WRITES_PER_S, 50);
const TARGET_RATIO = 0.3;
const DB_NAME = "sb_bench_inbox";

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

function benchUrl(): string {
  const url = new URL(serverUrl);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

// Absolute: the bench runs from bench/ under `npm run bench`, the server it starts from the repository root.
const DATA_DIR = path.resolve(import.meta.dirname, "..", ".tmp/bench-inbox");
const REUSE = !SMOKE && process.env.BENCH_REUSE === "1";

async function openDatabase(reuse: boolean): Promise<DatabaseHandle> {
  if (SMOKE) {
    await rm(DATA_DIR, { recursive: true, force: true });
    return openPglite({ dataDir: path.join(DATA_DIR, "pglite") });
  }
  if (!reuse) {
    await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(`create database ${DB_NAME}`);
  }
  return openPostgres(benchUrl());
}

const started = Date.now();
const reuse = REUSE && (await databaseExists(serverUrl, DB_NAME));
const database = await openDatabase(reuse);
await migrateDatabase(database);
const db = database.db;
const repo = createAccountsRepository(db);

async function exec(text: string) {
  if (database.driver.kind === "pglite") await database.driver.client.exec(text);
  else await database.driver.pool.query(text);
}

// Organisations, their agents and owners (with a session each).
const tokens: string[] = [];
if (reuse) {
  const owners = await db
    .select({ userId: memberships.userId, accountId: memberships.accountId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(like(users.email, "owner%@bench.example"))
    .orderBy(memberships.accountId);
  for (const o of owners) tokens.push(await issueSessionToken(db, o.userId, o.accountId));
  await exec("analyze");
} else {
  const orgRows: { orgId: number; agentId: number; userId: number }[] = [];
  for (let i = 0; i < ORGS; i++) {
    const org = await repo.insertAccount(null, {
      accountType: "organization",
      usernameFrom: `bench-org-${i}`,
      email: `owner${i}@bench.example`,
      details: { orgName: `Bench ${i}` },
    });
    const agent = await repo.insertAccount(org, {
      accountType: "agent",
      usernameFrom: `bench-agent-${i}`,
      details: { agentName: `Agent ${i}` },
    });
    const [user] = await db
      .insert(users)
      .values({ email: `owner${i}@bench.example`, fullName: `Owner ${i}` })
      .returning();
    if (!user) throw new Error("bench user");
    await db.insert(memberships).values({ userId: user.id, accountId: org.id, role: "owner" });
    tokens.push(await issueSessionToken(db, user.id, org.id));
    orgRows.push({ orgId: org.id, agentId: agent.id, userId: user.id });
  }

  const values = orgRows.map((o) => `(${o.orgId}, ${o.agentId}, ${o.userId})`).join(", ");
  await exec("drop table if exists bench_orgs");
  await exec(`create unlogged table bench_orgs (org_id int, agent_id int, user_id int)`);
  await exec(`insert into bench_orgs values ${values}`);
  await exec(`
    insert into rooms (id, org_id, agent_account_id, channel, kind, status, external_address, title, created_at)
    select md5(o.org_id || '-' || g)::uuid::text, o.org_id, o.agent_id, 'sms', 'live',
      case when g % 50 = 0 then 'archived' else 'open' end,
      '+1503' || lpad(g::text, 7, '0'), '+1503' || lpad(g::text, 7, '0'), now() - interval '100 days'
    from bench_orgs o, generate_series(1, ${ROOMS_PER_ORG}) g`);
  await exec(`
    insert into conversation_messages (org_id, room_id, role, text, status, delivery_status, created_at)
    select r.org_id, r.id, case when m % 2 = 1 then 'user' else 'assistant' end,
      'Message ' || m || ' of the conversation with ' || r.external_address, 'complete',
      case when m % 2 = 1 then 'received' else 'delivered' end,
      now() - (abs(hashtext(r.id)) % 8640000) * interval '1 second' + m * interval '1 minute'
    from rooms r, generate_series(1, ${MESSAGES_PER_ROOM}) m`);
  await exec(`
    update rooms r set last_message_text = s.text, last_message_at = s.created_at, last_inbound_message_id = s.inbound
    from (
      select room_id, (array_agg(text order by id desc))[1] as text, max(created_at) as created_at,
        max(id) filter (where role = 'user') as inbound
      from conversation_messages group by room_id
    ) s where s.room_id = r.id`);
  // Each owner has read about half of their rooms up to some message.
  await exec(`
    insert into room_reads (room_id, user_id, org_id, last_read_message_id)
    select r.id, o.user_id, r.org_id, r.last_inbound_message_id - (abs(hashtext(r.id)) % 3) * 2
    from rooms r join bench_orgs o on o.org_id = r.org_id
    where abs(hashtext(r.id || 'read')) % 2 = 0`);
  await exec("drop table bench_orgs");
  // As autovacuum leaves a table that has settled (visibility map set, statistics current).
  await exec(SMOKE ? "analyze" : "vacuum analyze");
}
const setupSeconds = ((Date.now() - started) / 1000).toFixed(1);
// PGlite has one connection per process: the server's process opens the data directory after this one lets go.
if (SMOKE) await database.close();

const root = path.resolve(import.meta.dirname, "..");

/** Starts a child process and resolves with the first http:// address it prints. */
function startProcess(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ child: ChildProcess; url: string }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: childEnv,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/[0-9.]+:\d+/.exec(out);
      if (match) {
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve({ child, url: match[0] });
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`${args.join(" ")} exited (${code}) before listening: ${out}`)),
    );
  });
}

const server = await startProcess(
  [
    ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
    "--import",
    "tsx",
    path.join(root, "apps/server/src/server.ts"),
  ],
  {
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: "0",
    SECRET_KEY: "b".repeat(40),
    DATA_DIR,
    DEMO_DATA: "false",
    DATABASE_URL: SMOKE ? undefined : benchUrl(),
  },
);
const bareSource = `
  import Fastify from "fastify";
  const bare = Fastify({ logger: false });
  bare.get("/bare", async () => ({ success: true, rooms: [], totalRooms: 0 }));
  console.log(await bare.listen({ port: 0, host: "127.0.0.1" }));
`;
const bareServer = await startProcess(["--input-type=module", "-e", bareSource], { NODE_ENV: "production" });
const inboxAddress = server.url;
const bareAddress = bareServer.url;
// However the bench ends (a failed check throws), the servers it started end with it.
process.once("exit", () => {
  server.child.kill();
  bareServer.child.kill();
});

/** Waits until the server says it is ready (migrations applied) before anything is measured. */
async function waitUntilReady(url: string, seconds = 60): Promise<void> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > until) throw new Error(`${url} was not ready after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
await waitUntilReady(inboxAddress);

// Sanity: the answer is what the inbox shows.
const probeResponse = await fetch(`${inboxAddress}/api/v1/conversations?token=${tokens[0]}`);
const probe = (await probeResponse.json()) as {
  rooms?: { unreadCount: number; lastMessage: { text: string } }[];
  totalRooms: number;
};
if (probe.rooms?.length !== 20 || !probe.rooms[0]?.lastMessage.text)
  throw new Error(
    `unexpected inbox answer (${probeResponse.status}): ${JSON.stringify(probe).slice(0, 300)}`,
  );

/** Runs the clients in a worker (its own core): each client keeps one request in flight for DURATION_S. */
function load(
  urls: string[],
): Promise<{ latencies: number[]; count: number; errors: number; seconds: number }> {
  // node:http with keep-alive, not fetch: fetch's own overhead in the client thread would dominate both
  // latencies at 50 clients (its queueing alone was about 20 ms p95 on the bare route).
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const http = require("node:http");
    const { urls, concurrency, durationMs } = workerData;
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const latencies = [];
    let errors = 0;
    const end = Date.now() + durationMs;
    const get = (url) => new Promise((resolve) => {
      http.get(url, { agent }, (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.statusCode === 200));
        res.on("error", () => resolve(false));
      }).on("error", () => resolve(false));
    });
    async function client(i) {
      let n = i;
      while (Date.now() < end) {
        const url = urls[n++ % urls.length];
        const t = performance.now();
        if (!(await get(url))) errors++;
        latencies.push(performance.now() - t);
      }
    }
    const t0 = Date.now();
    Promise.all(Array.from({ length: concurrency }, (_, i) => client(i))).then(() => {
      agent.destroy();
      parentPort.postMessage({ latencies, errors, seconds: (Date.now() - t0) / 1000 });
    });
  `;

  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { urls, concurrency: CONCURRENCY, durationMs: DURATION_S * 1000 },
    });
    worker.once("message", (m: { latencies: number[]; errors: number; seconds: number }) =>
      resolve({ ...m, count: m.latencies.length }),
    );
    worker.once("error", reject);
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

// Pages 0-2, unread filter on a quarter of the calls, every organisation's owner.
const inboxUrls: string[] = [];
for (const [i, token] of tokens.entries())
  for (const page of [0, 0, 1, 2])
    inboxUrls.push(
      `${inboxAddress}/api/v1/conversations?token=${token}${page ? `&page=${page}` : ""}${i % 4 === 0 ? "&unread=true" : ""}`,
    );

/**
 * New inbound texts while the inbox is loaded (PostgreSQL only: PGlite's one connection belongs to the
 * server), WRITES_PER_S across random rooms of random organisations, written as the inbox writes them (the
 * message, then the room's last message), so the server's cached pages of those organisations go stale.
 */
async function writeWhile(running: () => boolean): Promise<number> {
  if (SMOKE || WRITES_PER_S === 0) return 0;
  const client = new pg.Client({ connectionString: benchUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; org_id: number }>(
      "select id, org_id from rooms tablesample system (1) limit 2000",
    );
    if (rows.length === 0) return 0;
    return await writePaced(WRITES_PER_S, running, async (writes) => {
      const room = rows[writes % rows.length] as (typeof rows)[number];
      await client.query(
        `with m as (
           insert into conversation_messages (org_id, room_id, role, text, status, delivery_status)
           values ($1, $2, 'user', $3, 'complete', 'received') returning id, text, created_at)
         update rooms r set last_message_text = m.text, last_message_at = m.created_at, last_inbound_message_id = m.id
         from m where r.id = $2`,
        [room.org_id, room.id, `Bench text ${writes}`],
      );
    });
  } finally {
    await client.end();
  }
}

/** CPU seconds a child process has used so far (Linux's /proc; NaN elsewhere). */
function cpuSecondsOf(child: ChildProcess): number {
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
    // After "pid (command) ": state is field 3, utime and stime fields 14 and 15, in ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

await load([`${bareAddress}/bare`]); // warm-up of the clients
const bareCpuBefore = cpuSecondsOf(bareServer.child);
const bareRun = await load([`${bareAddress}/bare`]);
const bareCpu = cpuSecondsOf(bareServer.child) - bareCpuBefore;
await load(inboxUrls.slice(0, 50));
let loading = true;
const writing = writeWhile(() => loading);
const inboxCpuBefore = cpuSecondsOf(server.child);
const inboxRun = await load(inboxUrls);
const inboxCpu = cpuSecondsOf(server.child) - inboxCpuBefore;
loading = false;
const writes = await writing;

const bareSorted = [...bareRun.latencies].sort((a, b) => a - b);
const inboxSorted = [...inboxRun.latencies].sort((a, b) => a - b);
const bareRps = bareRun.count / bareRun.seconds;
const inboxRps = inboxRun.count / inboxRun.seconds;
const p95 = pct(inboxSorted, 0.95);
const ratio = inboxRps / bareRps;
// The same ratio per CPU-second of each server: what a request costs, which other work on a shared machine
// (taking cores from one window and not the other) hardly moves. The guarded figure (bench/baseline.json).
const perCpuRatio = inboxRun.count / inboxCpu / (bareRun.count / bareCpu);

console.log(
  `data: ${ORGS * ROOMS_PER_ORG} rooms, ${ORGS * ROOMS_PER_ORG * MESSAGES_PER_ROOM} messages in ${SMOKE ? "PGlite" : "PostgreSQL"} (${ORGS} organisations; setup ${setupSeconds} s)`,
);
console.log(`clients: ${CONCURRENCY} concurrent, ${DURATION_S} s per route`);
console.log(
  `writes while the inbox was loaded: ${writes} new inbound texts (${(writes / inboxRun.seconds).toFixed(0)}/s across the organisations)`,
);
console.log(
  `bare Fastify route: ${bareRps.toFixed(0)} req/s, p50 ${pct(bareSorted, 0.5).toFixed(2)} ms, p95 ${pct(bareSorted, 0.95).toFixed(2)} ms`,
);
console.log(
  `inbox list (page of 20): ${inboxRps.toFixed(0)} req/s, p50 ${pct(inboxSorted, 0.5).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, p99 ${pct(inboxSorted, 0.99).toFixed(2)} ms, errors ${inboxRun.errors}`,
);
console.log(
  `ratio inbox/bare throughput: ${ratio.toFixed(2)}; per CPU-second of each server: ${perCpuRatio.toFixed(3)} (${(inboxRun.count / inboxCpu).toFixed(0)} and ${(bareRun.count / bareCpu).toFixed(0)} requests per CPU-second)`,
);
const bench = "inbox-list";
reportFigure({ bench, name: "bare Fastify throughput", value: bareRps, unit: "req/s", better: "higher" });
reportFigure({ bench, name: "inbox throughput", value: inboxRps, unit: "req/s", better: "higher" });
reportFigure({ bench, name: "inbox p50", value: pct(inboxSorted, 0.5), unit: "ms", better: "lower" });
reportFigure({ bench, name: "inbox p95", value: p95, unit: "ms", target: TARGET_P95_MS, better: "lower" });
reportFigure({
  bench,
  name: "inbox errors",
  value: inboxRun.errors,
  unit: "requests",
  target: 0,
  better: "lower",
});
reportFigure({
  bench,
  name: "writes while loaded",
  value: writes / inboxRun.seconds,
  unit: "writes/s",
  better: "higher",
});
reportFigure({
  bench,
  name: "inbox/bare throughput",
  value: ratio,
  unit: "x",
  target: TARGET_RATIO,
  better: "higher",
});
reportFigure({
  bench,
  name: "inbox/bare throughput per server CPU-second",
  value: perCpuRatio,
  unit: "x",
  better: "higher",
  stable: true,
});
const met = p95 < TARGET_P95_MS && ratio >= TARGET_RATIO;
console.log(
  `target: p95 < ${TARGET_P95_MS} ms and ratio >= ${TARGET_RATIO}: ${met ? "met" : "NOT met"}${SMOKE ? " (smoke size: not the measured figure)" : ""}`,
);

for (const child of [server.child, bareServer.child]) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
if (!SMOKE) await database.close();
if (!SMOKE && !process.env.BENCH_KEEP) await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
if (inboxRun.errors > 0) process.exit(1);
