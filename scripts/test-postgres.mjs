#!/usr/bin/env node
// `npm run test:postgres`: the server test files that open a database (apps/server/test/test-lanes.ts),
// on a PostgreSQL server: DATABASE_URL, else the local one at 127.0.0.1:5432 (started if it is installed but
// down). Test databases are made from a template database there and dropped after.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

async function answers() {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

if (!(await answers())) {
  console.log(`PostgreSQL at ${url} does not answer; trying to start the local cluster`);
  let versions = [];
  try {
    versions = readdirSync("/etc/postgresql");
  } catch {}
  for (const version of versions)
    spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { stdio: "inherit" });
  if (!(await answers())) {
    console.error(`No PostgreSQL server answers at ${url}: set DATABASE_URL to one.`);
    process.exit(1);
  }
}

const result = spawnSync(
  "npx",
  // Both server projects unless the arguments name one (`-- --project server-realtime`).
  [
    "vitest",
    "run",
    ...(process.argv.includes("--project") ? [] : ["--project", "server", "--project", "server-realtime"]),
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: "inherit",
    // One file at a time unless VITEST_WORKERS says otherwise: on CI it runs beside the unit lane.
    env: { VITEST_WORKERS: "1", ...process.env, DATABASE_URL: url, SERVER_LANE: "postgres" },
  },
);
process.exit(result.status ?? 1);
