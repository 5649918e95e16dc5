// Tasks (issue 18): (1) import of a CSV list of ROWS rows through POST /api/v2/tasks/csv (multipart,
// streamed through csv-parse, validated, inserted in one transaction): time and peak memory of the process;
// (2) the scheduler dispatching DISPATCH due text tasks through the sandbox carrier (dispatch passes, run
// jobs, the inbox's SMS path, outcome, webhook, next pass): tasks per second, while a client reads the inbox
// list (GET /api/v1/conversations, page of 20) one request after another: its p95 against the inbox list's
// target (25 ms, bench/inbox-list.bench.ts).
// One server in this process (buildApp, LOG_LEVEL silent), as the server tests build it.
// Full size: 100,000 rows and 10,000 tasks on PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; a database of its own, dropped after). BENCH_SIZE=smoke: 2,000
// rows and 300 tasks on PGlite. BENCH_PART=import: only (1); BENCH_ROWS: another number of rows to import;
// BENCH_TASKS: another number of tasks to dispatch; BENCH_KEEP=1 keeps the database (to EXPLAIN its queries).

import { randomBytes } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import * as api from "@switchboard/api";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import { openPglite, openPostgres } from "../apps/server/src/db/client.ts";
import { testConfig } from "../apps/server/test/helpers.ts";
import { prepareTaskAgent } from "../apps/server/test/task-fixtures.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const ROWS = Number(process.env.BENCH_ROWS) || (SMOKE ? 2_000 : 100_000);
const DISPATCH = Number(process.env.BENCH_TASKS) || (SMOKE ? 300 : 10_000);
const IMPORT_ONLY = process.env.BENCH_PART === "import";
const TARGET_P95_MS = 25;
const AGENT_NUMBER = "+15035550123";
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

function csvOf(rows: number, offset: number): string {
  const lines = ["Phone Number,Name,E-mail,Timezone,Appointment"];
  for (let i = 0; i < rows; i++) {
    const n = offset + i;
    // Fictional 555-01xx style numbers spread over area codes: all distinct, all valid.
    const area = 201 + Math.floor(n / 10_000);
    const line = String(n % 10_000).padStart(4, "0");
    lines.push(`(${area}) 555-${line},Person ${n},p${n}@example.com,America/New_York,Tuesday ${n % 12}am`);
  }
  return `${lines.join("\n")}\n`;
}

async function main() {
  let dbName: string | null = null;
  let database: Awaited<ReturnType<typeof openPglite>>;
  if (SMOKE) database = await openPglite();
  else {
    dbName = `sb_bench_tasks_${randomBytes(4).toString("hex")}`;
    await admin(`create database "${dbName}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    database = await openPostgres(url.toString());
  }
  const app = await buildApp(testConfig({ SHUTDOWN_GRACE_MS: "2000" }), { database });
  try {
    const { world, owner } = await prepareTaskAgent(app, AGENT_NUMBER, {
      maxConcurrent: 50,
      dailyLimit: 100_000,
    });

    // (1) Import: the rows wait a day, so the scheduler does not run them during the measurement.
    const csv = csvOf(ROWS, 0);
    const form = new FormData();
    form.append("csv", new Blob([csv], { type: "text/csv" }), "bench.csv");
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    const imported = await owner.call(api.uploadTaskCsv, {
      query: {
        agentId: world.accounts.A1.id,
        message: "Hi {name}, see you {appointment}.",
        scheduledAt: Date.now() + 24 * 3600_000,
      },
      form,
    });
    const importMs = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (imported.imported !== ROWS) throw new Error(`imported ${imported.imported} of ${ROWS}`);
    console.log(
      `import: ${ROWS} rows (${(csv.length / 1024 / 1024).toFixed(1)} MB) in ${(importMs / 1000).toFixed(2)} s ` +
        `(${Math.round(ROWS / (importMs / 1000))} rows/s); peak RSS ${Math.round(peak / 1024 / 1024)} MB, ` +
        `${Math.round((peak - baseline) / 1024 / 1024)} MB above the server's ${Math.round(baseline / 1024 / 1024)} MB`,
    );
    reportFigure({
      bench: "tasks",
      name: "import rate",
      value: ROWS / (importMs / 1000),
      unit: "rows/s",
      better: "higher",
    });
    reportFigure({
      bench: "tasks",
      name: "import RSS above the server",
      value: (peak - baseline) / 1024 / 1024,
      unit: "MB",
      better: "lower",
    });
    if (IMPORT_ONLY) return;
    // The imported list is cancelled: only the next list runs.
    await owner.call(api.changeTaskList, {
      params: { listId: imported.list?.id as number },
      body: { action: "cancel" },
    });

    // (2) Dispatch of due text tasks, with the inbox list read meanwhile.
    const due = new FormData();
    due.append("csv", new Blob([csvOf(DISPATCH, 500_000)], { type: "text/csv" }), "due.csv");
    const latencies: number[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const t0 = performance.now();
        await owner.call(api.listConversations, { query: { page: 0, pageSize: 20 } });
        latencies.push(performance.now() - t0);
        // One reader at a human pace (a browser refreshing its list), not a flood.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    // How long the process's event loop was held up meanwhile: the server, its job workers and this client
    // share it.
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const t1 = performance.now();
    const list = await owner.call(api.uploadTaskCsv, {
      query: { agentId: world.accounts.A1.id, message: "Hi {name}, see you {appointment}." },
      form: due,
    });
    const listId = list.list?.id as number;
    const giveUp = Date.now() + (SMOKE ? 180_000 : 3_600_000);
    for (;;) {
      if (Date.now() > giveUp) throw new Error("the list did not finish in time");
      const stats = await owner.call(api.getTaskStats, { query: { listId } });
      const done = (stats.stats.byState.completed ?? 0) + (stats.stats.byState.failed ?? 0);
      if (done >= DISPATCH) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const dispatchS = (performance.now() - t1) / 1000;
    loopDelay.disable();
    reading = false;
    await reader;
    // The same reads with the dispatch over: what the list costs at this size by itself.
    const alone: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await owner.call(api.listConversations, { query: { page: 0, pageSize: 20 } });
      alone.push(performance.now() - t0);
    }
    // Pages not cached yet (each page size once): the query itself at this size.
    const uncached: number[] = [];
    for (let size = 10; size < 50; size++) {
      const t0 = performance.now();
      await owner.call(api.listConversations, { query: { page: 0, pageSize: size } });
      uncached.push(performance.now() - t0);
    }
    const stats = await owner.call(api.getTaskStats, { query: { listId } });
    const p95 = percentile(latencies, 95);
    console.log(
      `dispatch: ${DISPATCH} text tasks in ${dispatchS.toFixed(1)} s = ${(DISPATCH / dispatchS).toFixed(1)} tasks/s ` +
        `(completed ${stats.stats.byState.completed ?? 0}, failed ${stats.stats.byState.failed ?? 0})`,
    );
    console.log(
      `inbox list meanwhile: ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
        `p95 ${p95.toFixed(1)} ms (target ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? "met" : "NOT met"})`,
    );
    console.log(
      `event loop delay meanwhile: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, ` +
        `p95 ${(loopDelay.percentile(95) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
    );
    console.log(
      `inbox list after, alone: ${alone.length} requests, p50 ${percentile(alone, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(alone, 95).toFixed(1)} ms; not cached: p50 ${percentile(uncached, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(uncached, 95).toFixed(1)} ms`,
    );
    reportFigure({
      bench: "tasks",
      name: "dispatch rate",
      value: DISPATCH / dispatchS,
      unit: "tasks/s",
      better: "higher",
    });
    reportFigure({
      bench: "tasks",
      name: "inbox p95 during dispatch",
      value: p95,
      unit: "ms",
      target: TARGET_P95_MS,
      better: "lower",
    });
    reportFigure({
      bench: "tasks",
      name: "inbox p95 alone",
      value: percentile(alone, 95),
      unit: "ms",
      better: "lower",
    });
    if ((stats.stats.byState.completed ?? 0) !== DISPATCH) process.exitCode = 1;
  } finally {
    await app.close();
    if (dbName && process.env.BENCH_KEEP) console.log(`kept database ${dbName} (BENCH_KEEP)`);
    else if (dbName) await admin(`drop database if exists "${dbName}" with (force)`);
  }
}

await main();
