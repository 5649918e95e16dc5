// Knowledge-base answers (issue 32, item 9): does a question in a caller's words find the passage that
// answers it? The fixture sites of apps/server/test/fixtures/kb (a vet clinic, a restaurant, a plumbing
// company, a dental practice: pages with navigation, sidebars, footers and "see our … pages" captions) are
// served on loopback, added by URL through the API and indexed by the kb-ingest jobs of a real server
// (buildApp: fetch, extraction, passages), one organisation per site. Each labelled question
// (kb/questions.json) is then asked through the query call (processQuery, as the agents' knowledge tool
// asks) and counts as found at k when one of the first k passages is of the page that answers it and holds
// the answer's words. Prints recall@1 and recall@3 (goal recall@3 >= 0.9).
//
// PGlite by default (in .tmp/bench-kb-recall); on PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL is set
// (the bench creates and drops its own database sb_bench_kb_recall). BENCH_SIZE=smoke runs the same set
// (it is small). BENCH_VERBOSE=1 prints every miss with what came first.

import { rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { type DatabaseHandle, openPglite, openPostgres } from "../apps/server/src/db/client.ts";
import { memberships, users } from "../apps/server/src/db/schema/index.ts";
import { createAccountsRepository } from "../apps/server/src/modules/accounts/accounts.repository.ts";
import { issueSessionToken } from "../apps/server/src/modules/auth/sessions.ts";
import { ingestDocumentJob } from "../apps/server/src/modules/knowledge-base/jobs.ts";
import {
  answers,
  kbPages,
  kbQuestions,
  kbSites,
  serveKbSites,
} from "../apps/server/test/fixtures/kb-sites.ts";
import { reportFigure } from "./report.ts";

const BENCH = "kb-recall";
const TARGET_RECALL_AT_3 = 0.9;
const DB_NAME = "sb_bench_kb_recall";
const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? null;
const DATA_DIR = path.resolve(import.meta.dirname, "..", ".tmp/bench-kb-recall");
const VERBOSE = Boolean(process.env.BENCH_VERBOSE);

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: serverUrl ?? undefined });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function benchUrl(): string {
  const url = new URL(serverUrl as string);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

async function openDatabase(): Promise<DatabaseHandle> {
  if (!serverUrl) {
    await rm(DATA_DIR, { recursive: true, force: true });
    return openPglite({ dataDir: path.join(DATA_DIR, "pglite") });
  }
  await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
  await adminQuery(`create database ${DB_NAME}`);
  return openPostgres(benchUrl());
}

const started = Date.now();
const database = await openDatabase();
const app = await buildApp(
  loadConfig({
    NODE_ENV: "production",
    SECRET_KEY: "bench-secret-key-bench-secret-key-bench",
    LOG_LEVEL: "warn",
    DATA_DIR,
    DEMO_DATA: "false",
    SIP_PORT: "0",
    OUTBOUND_ALLOWLIST: "127.0.0.1:*",
    ...(serverUrl ? { DATABASE_URL: benchUrl() } : {}),
  }),
  { database },
);
const db = app.context.database.db;
const sites = await serveKbSites();

const call = async (method: "GET" | "POST", url: string, token: string, payload?: unknown) => {
  const response = await app.inject({
    method,
    url: `${url}?token=${token}`,
    ...(payload ? { payload: payload as Record<string, unknown> } : {}),
  });
  if (response.statusCode !== 200)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
};

// One organisation (and owner) per site, its pages added by URL and indexed by the jobs.
const accounts = createAccountsRepository(db);
const bySite = new Map<string, { token: string; kbId: number }>();
let pages = 0;
let indexed = 0;
const ingestStarted = performance.now();
for (const site of kbSites()) {
  const org = await accounts.insertAccount(null, {
    accountType: "organization",
    usernameFrom: `bench-${site}`,
    email: `owner@${site}.example`,
    details: { orgName: site },
  });
  const [user] = await db
    .insert(users)
    .values({ email: `owner@${site}.example`, fullName: `Owner of ${site}` })
    .returning();
  if (!user) throw new Error("bench user");
  await db.insert(memberships).values({ userId: user.id, accountId: org.id, role: "owner" });
  const token = await issueSessionToken(db, user.id, org.id);
  const created = await call("POST", "/api/v2/kb/knowledgebase", token, { title: site });
  const kbId = created.knowledgeBase.id as number;
  const urls = kbPages(site).map((page) => sites.url(site, page));
  pages += urls.length;
  await call("POST", `/api/v2/kb/knowledgebase/${kbId}/document`, token, { urls });
  bySite.set(site, { token, kbId });
}
await app.context.jobs.idle([ingestDocumentJob], 300_000);
for (const { token, kbId } of bySite.values())
  indexed += (await call("GET", `/api/v2/kb/knowledgebase/${kbId}`, token)).knowledgeBase.progress.indexed;
const ingestSeconds = (performance.now() - ingestStarted) / 1000;

// The labelled questions, asked as the agents' knowledge tool asks (3 passages).
const questions = kbQuestions();
let at1 = 0;
let at3 = 0;
let heldOut = 0;
let heldOutAt3 = 0;
const misses: string[] = [];
const timings: number[] = [];
for (const item of questions) {
  const target = bySite.get(item.site);
  if (!target) throw new Error(`no site ${item.site}`);
  const t0 = performance.now();
  const { passages } = (await call("POST", `/api/v2/kb/knowledgebase/${target.kbId}/query`, target.token, {
    query: item.question,
    limit: 3,
  })) as { passages: { url: string | null; text: string; title: string }[] };
  timings.push(performance.now() - t0);
  const rank = passages.findIndex((passage) => answers(item, passage));
  if (rank === 0) at1++;
  if (item.heldOut) heldOut++;
  if (rank >= 0 && rank < 3) {
    at3++;
    if (item.heldOut) heldOutAt3++;
  } else
    misses.push(
      `${item.site}: "${item.question}"${item.heldOut ? " (held out)" : ""} -> ${
        passages
          .map((p) => `${p.url?.split("/").at(-1)}: ${p.text.slice(0, 60).replace(/\s+/g, " ")}`)
          .join(" | ") || "nothing"
      }`,
    );
}
timings.sort((a, b) => a - b);
const p50 = timings[Math.floor(timings.length / 2)] ?? 0;

await sites.close();
await app.close();
if (serverUrl && !process.env.BENCH_KEEP) await adminQuery(`drop database if exists ${DB_NAME} with (force)`);

const recall1 = at1 / questions.length;
const recall3 = at3 / questions.length;
console.log(
  `ingestion: ${indexed} of ${pages} pages of ${bySite.size} sites indexed in ${ingestSeconds.toFixed(1)} s on ${serverUrl ? "PostgreSQL" : "PGlite"}`,
);
console.log(
  `recall@1 ${at1}/${questions.length} = ${recall1.toFixed(3)}, recall@3 ${at3}/${questions.length} = ${recall3.toFixed(3)} (goal recall@3 >= ${TARGET_RECALL_AT_3}); query p50 ${p50.toFixed(1)} ms`,
);
console.log(
  `of which held out (written after tuning, ${heldOut} questions): recall@3 ${heldOutAt3}/${heldOut} = ${(heldOutAt3 / Math.max(1, heldOut)).toFixed(3)}`,
);
if (misses.length)
  console.log(
    `missed at 3 (${misses.length}):${VERBOSE ? `\n  ${misses.join("\n  ")}` : " BENCH_VERBOSE=1 lists them"}`,
  );
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
reportFigure({ bench: BENCH, name: "recall@1", value: recall1, unit: "share", better: "higher" });
reportFigure({
  bench: BENCH,
  name: "recall@3",
  value: recall3,
  unit: "share",
  target: TARGET_RECALL_AT_3,
  better: "higher",
});
reportFigure({
  bench: BENCH,
  name: "recall@3 held out",
  value: heldOutAt3 / Math.max(1, heldOut),
  unit: "share",
  better: "higher",
});
reportFigure({
  bench: BENCH,
  name: "pages not indexed",
  value: pages - indexed,
  unit: "pages",
  target: 0,
  better: "lower",
});
if (indexed !== pages) process.exit(1);
