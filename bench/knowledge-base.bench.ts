// The knowledge base (issue 19), three figures:
// 1. Query latency: the search the agents' knowledge tool runs (KnowledgeBaseService.search: websearch
//    query, any-word fallback, ts_rank_cd over the GIN-indexed tsvector) with 100,000 passages in one
//    organisation's knowledge bases, among 10 organisations (the other 9 hold 20,000 each: 280,000 in all),
//    on PostgreSQL. 300 queries one after another; p50 and p95. Target: p95 <= 20 ms.
// 2. Ingestion rate: pages per second of a site served on loopback (allowed by OUTBOUND_ALLOWLIST) added
//    through the API and indexed by the kb-ingest jobs of a real server (buildApp), robots.txt included.
// 3. Retrieval quality: recall@3 on a labelled set written here (20 questions, each with the one passage
//    that answers it), searched among all the passages of the organisation.
//
// Needs a PostgreSQL server: BENCH_DATABASE_URL or DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; the bench creates and drops its own database sb_bench_kb
// (BENCH_KEEP=1 keeps it; BENCH_REUSE=1 then measures it again without seeding).
// BENCH_DATABASE=pglite: the same at full size on PGlite (in .tmp/bench-kb).
// BENCH_SIZE=smoke: PGlite, 2,000 passages in the organisation (1,000 in each other), 20 pages ingested.
// BENCH_VERBOSE=1 also prints the slowest queries.

import { rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { type DatabaseHandle, openPglite, openPostgres } from "../apps/server/src/db/client.ts";
import {
  kbChunks,
  kbDocuments,
  knowledgeBases,
  memberships,
  users,
} from "../apps/server/src/db/schema/index.ts";
import { createAccountsRepository } from "../apps/server/src/modules/accounts/accounts.repository.ts";
import { issueSessionToken } from "../apps/server/src/modules/auth/sessions.ts";
import { createKbFetcher } from "../apps/server/src/modules/knowledge-base/fetcher.ts";
import { ingestDocumentJob } from "../apps/server/src/modules/knowledge-base/jobs.ts";
import { createKnowledgeBaseService } from "../apps/server/src/modules/knowledge-base/knowledge-base.service.ts";
import { databaseExists } from "./postgres-server.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const PGLITE = SMOKE || process.env.BENCH_DATABASE === "pglite";
const ORGS = 10;
const TARGET_CHUNKS = SMOKE ? 2_000 : 100_000;
const OTHER_CHUNKS = SMOKE ? 1_000 : 20_000;
const CHUNKS_PER_DOCUMENT = 20;
const PAGES = SMOKE ? 20 : 200;
const QUERIES = SMOKE ? 50 : 300;
const TARGET_P95_MS = 20;
const DB_NAME = "sb_bench_kb";

const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const DATA_DIR = path.resolve(import.meta.dirname, "..", ".tmp/bench-kb");

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

const REUSE = !SMOKE && process.env.BENCH_REUSE === "1";

async function openDatabase(reuse: boolean): Promise<DatabaseHandle> {
  if (PGLITE) {
    if (!reuse) await rm(DATA_DIR, { recursive: true, force: true });
    return openPglite({ dataDir: path.join(DATA_DIR, "pglite") });
  }
  if (!reuse) {
    await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(`create database ${DB_NAME}`);
  }
  return openPostgres(benchUrl());
}

// A deterministic pseudo-random source, so every run seeds the same text.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

// Filler text: words of a business website, drawn with a Zipf-like skew (common words are common).
const VOCABULARY = (
  "service services customer customers team staff office opening hours appointment appointments booking " +
  "price prices cost quote delivery order orders product products support contact email phone address " +
  "location parking payment invoice account online website policy return refund warranty repair install " +
  "installation maintenance schedule weekday weekend morning afternoon evening holiday season offer offers " +
  "discount member members membership plan plans premium basic standard option options quality local city " +
  "street building floor room rooms event events class classes course courses lesson lessons training " +
  "garden kitchen roof window door floor paint cleaning clean inspection safety insurance licence permit " +
  "estimate project projects material materials timber steel glass stone tile carpet heating cooling water " +
  "electric power energy solar battery car vehicle tyre engine brake oil wash valet pet dog cat vet clinic " +
  "doctor dentist nurse patient patients treatment check visit menu table dinner lunch breakfast wine beer " +
  "coffee cake bread vegan gluten allergy children family group private party wedding gift voucher card " +
  "history story mission value values community charity news blog article guide tips question answer"
).split(" ");
const weights = VOCABULARY.map((_, i) => 1 / (i + 1) ** 0.8);
const totalWeight = weights.reduce((a, b) => a + b, 0);
function word(): string {
  let r = random() * totalWeight;
  for (let i = 0; i < VOCABULARY.length; i++) {
    r -= weights[i] as number;
    if (r <= 0) return VOCABULARY[i] as string;
  }
  return VOCABULARY[0] as string;
}
function sentence(): string {
  const n = 8 + Math.floor(random() * 10);
  const words = Array.from({ length: n }, word);
  const first = words[0] as string;
  words[0] = first[0]?.toUpperCase() + first.slice(1);
  return `${words.join(" ")}.`;
}
const fillerPassage = () => Array.from({ length: 6 }, sentence).join(" ");

/** The labelled set: each question and the passage that answers it (worded differently on purpose). */
const LABELLED: { passage: string; question: string }[] = [
  {
    passage:
      "Our clinic treats reptiles, including lizards, snakes and tortoises, every Thursday with our exotic animal vet.",
    question: "Do you see snakes or lizards?",
  },
  {
    passage: "Free parking is available in the car park behind the building, entered from Mill Lane.",
    question: "Where can I park my car?",
  },
  {
    passage: "We are open Monday to Friday from 8am to 6pm and on Saturdays from 9am to 1pm.",
    question: "What time do you open on Saturday?",
  },
  {
    passage: "A standard roof inspection costs $150 and includes a written report with photographs.",
    question: "How much is a roof inspection?",
  },
  {
    passage: "Gift vouchers can be bought at reception or online and are valid for twelve months.",
    question: "Do you sell gift vouchers?",
  },
  {
    passage: "Cancellations made less than 24 hours before the appointment are charged a $30 fee.",
    question: "Is there a fee if I cancel late?",
  },
  {
    passage: "Our kitchen can prepare gluten-free and vegan dishes; please tell your server about allergies.",
    question: "Can you cook gluten free food?",
  },
  {
    passage: "Solar panel installation usually takes two days, and the permit is arranged by our team.",
    question: "How long does it take to install solar panels?",
  },
  {
    passage: "We accept Visa, Mastercard, American Express and bank transfer; we do not accept cheques.",
    question: "Can I pay with American Express?",
  },
  {
    passage: "Private dining for parties of up to 40 guests is available in the Garden Room.",
    question: "Do you host private parties?",
  },
  {
    passage: "All our repairs carry a two-year warranty on parts and labour.",
    question: "What warranty do repairs have?",
  },
  {
    passage: "Children under five eat free from the kids menu when dining with an adult.",
    question: "Do kids eat free?",
  },
  {
    passage: "Electric vehicle charging points are installed within five working days of the survey.",
    question: "How quickly can you fit an EV charger?",
  },
  {
    passage:
      "Swimming lessons for beginners run on Tuesday and Thursday evenings at the leisure centre pool.",
    question: "When are beginner swimming lessons?",
  },
  {
    passage: "Returns are accepted within 30 days with the receipt; sale items cannot be returned.",
    question: "What is your return policy?",
  },
  {
    passage: "Emergency plumbing call-outs are answered 24 hours a day, including bank holidays.",
    question: "Can I get an emergency plumber at night?",
  },
  {
    passage: "Dogs are welcome on the terrace but not inside the restaurant, except assistance dogs.",
    question: "Are dogs allowed?",
  },
  {
    passage: "The annual membership costs $480 and includes unlimited classes and two guest passes.",
    question: "What does a yearly membership cost?",
  },
  {
    passage: "Wheelchair access is through the side entrance on Church Street, with a lift to every floor.",
    question: "Is the building wheelchair accessible?",
  },
  {
    passage: "Delivery within the city is free for orders over $50; otherwise it costs $5.",
    question: "How much is delivery?",
  },
];

const started = Date.now();
const reuse =
  REUSE &&
  (PGLITE
    ? await import("node:fs").then((fs) => fs.existsSync(path.join(DATA_DIR, "pglite")))
    : await databaseExists(serverUrl, DB_NAME));
const database = await openDatabase(reuse);
const app = await buildApp(
  loadConfig({
    NODE_ENV: "production",
    SECRET_KEY: "bench-secret-key-bench-secret-key-bench",
    LOG_LEVEL: "warn",
    DATA_DIR,
    DEMO_DATA: "false",
    SIP_PORT: "0",
    OUTBOUND_ALLOWLIST: "127.0.0.1:*",
    ...(PGLITE ? {} : { DATABASE_URL: benchUrl() }),
  }),
  { database },
);
const db = app.context.database.db;
const exec = async (text: string) => {
  await db.execute(text as never);
};

// Organisations, an owner each (for the API calls of the ingestion part).
const repo = createAccountsRepository(db);
const orgs: { id: number; token: string }[] = [];
for (let i = 0; i < ORGS; i++) {
  if (reuse) {
    const [owner] = await db
      .select({ userId: memberships.userId, accountId: memberships.accountId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(users.email, `kb-owner${i}@bench.example`));
    if (!owner) throw new Error(`kb-owner${i}@bench.example is missing: run without BENCH_REUSE`);
    orgs.push({ id: owner.accountId, token: await issueSessionToken(db, owner.userId, owner.accountId) });
    continue;
  }
  const org = await repo.insertAccount(null, {
    accountType: "organization",
    usernameFrom: `bench-kb-org-${i}`,
    email: `kb-owner${i}@bench.example`,
    details: { orgName: `KB Bench ${i}` },
  });
  const [user] = await db
    .insert(users)
    .values({ email: `kb-owner${i}@bench.example`, fullName: `Owner ${i}` })
    .returning();
  if (!user) throw new Error("bench user");
  await db.insert(memberships).values({ userId: user.id, accountId: org.id, role: "owner" });
  orgs.push({ id: org.id, token: await issueSessionToken(db, user.id, org.id) });
}
const target = orgs[0] as { id: number; token: string };

// Passages, written as indexed documents would leave them (the tsvector is generated by the database).
async function seedPassages(orgId: number, count: number, labelled: string[]): Promise<number[]> {
  const passages = [...labelled, ...Array.from({ length: count - labelled.length }, fillerPassage)];
  if (reuse) {
    // The same passages were written by the run that kept the database (drawn anyway: the queries follow).
    const rows = await db
      .select({ id: knowledgeBases.id })
      .from(knowledgeBases)
      .where(and(eq(knowledgeBases.orgId, orgId), inArray(knowledgeBases.title, ["Website", "Documents"])))
      .orderBy(knowledgeBases.id);
    return rows.map((row) => row.id);
  }
  const kbIds: number[] = [];
  for (const title of ["Website", "Documents"]) {
    const [kb] = await db.insert(knowledgeBases).values({ orgId, title }).returning();
    kbIds.push((kb as { id: number }).id);
  }
  for (let start = 0; start < passages.length; start += CHUNKS_PER_DOCUMENT * 50) {
    const batch = passages.slice(start, start + CHUNKS_PER_DOCUMENT * 50);
    const documents = await db
      .insert(kbDocuments)
      .values(
        Array.from({ length: Math.ceil(batch.length / CHUNKS_PER_DOCUMENT) }, (_, d) => ({
          orgId,
          knowledgeBaseId: kbIds[(start / CHUNKS_PER_DOCUMENT + d) % 2] as number,
          sourceKind: "url" as const,
          url: `https://org${orgId}.example/page-${start / CHUNKS_PER_DOCUMENT + d}`,
          title: `Page ${start / CHUNKS_PER_DOCUMENT + d}`,
          state: "indexed" as const,
          chunkCount: CHUNKS_PER_DOCUMENT,
        })),
      )
      .returning({
        id: kbDocuments.id,
        knowledgeBaseId: kbDocuments.knowledgeBaseId,
        title: kbDocuments.title,
      });
    await db.insert(kbChunks).values(
      batch.map((content, i) => {
        const document = documents[Math.floor(i / CHUNKS_PER_DOCUMENT)] as (typeof documents)[number];
        return {
          orgId,
          knowledgeBaseId: document.knowledgeBaseId,
          documentId: document.id,
          position: i % CHUNKS_PER_DOCUMENT,
          heading: document.title,
          content,
        };
      }),
    );
  }
  return kbIds;
}

const seedStarted = Date.now();
const targetKbs = await seedPassages(
  target.id,
  TARGET_CHUNKS,
  LABELLED.map((item) => item.passage),
);
for (const org of orgs.slice(1)) await seedPassages(org.id, OTHER_CHUNKS, []);
await exec("analyze kb_chunks");
await exec("analyze kb_documents");
await exec("analyze knowledge_bases");
await exec("analyze kb_lexemes");
console.log(
  `${reuse ? "reused" : "seeded"} ${TARGET_CHUNKS + OTHER_CHUNKS * (ORGS - 1)} passages (${TARGET_CHUNKS} in the measured organisation) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s on ${PGLITE ? "PGlite" : "PostgreSQL"}`,
);

const service = createKnowledgeBaseService({
  db,
  jobs: app.context.jobs,
  fetcher: createKbFetcher({ outbound: app.context.outbound, timeoutMs: 10_000 }),
  storage: app.context.storage,
  embeddings: null,
  log: app.log,
});

// 1. Query latency.
const questions = [
  ...LABELLED.map((item) => item.question),
  ...Array.from({ length: QUERIES }, () => {
    const n = 2 + Math.floor(random() * 4);
    return `${Array.from({ length: n }, word).join(" ")}?`;
  }),
].slice(0, QUERIES);
for (const question of questions.slice(0, 20)) await service.search(target.id, targetKbs, question); // warm up
const timings: number[] = [];
const slowest: { ms: number; question: string }[] = [];
for (const question of questions) {
  const t0 = performance.now();
  await service.search(target.id, targetKbs, question, { limit: 5 });
  timings.push(performance.now() - t0);
  slowest.push({ ms: performance.now() - t0, question });
}
timings.sort((a, b) => a - b);
if (process.env.BENCH_VERBOSE)
  for (const { ms, question } of slowest.sort((a, b) => b.ms - a.ms).slice(0, 20))
    console.log(`  ${ms.toFixed(1)} ms  ${question}`);
const pct = (p: number) =>
  timings[Math.min(timings.length - 1, Math.floor((p / 100) * timings.length))] as number;
const p50 = pct(50);
const p95 = pct(95);

// 3. Recall@3 on the labelled set.
let hits = 0;
const misses: string[] = [];
for (const item of LABELLED) {
  const passages = await service.search(target.id, targetKbs, item.question, { limit: 3 });
  if (passages.some((passage) => passage.text === item.passage)) hits++;
  else misses.push(item.question);
}
const recall = hits / LABELLED.length;

// 2. Ingestion rate: a site on loopback, its pages added through the API and indexed by the jobs.
const site = createServer((req, res) => {
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  if (pathname === "/robots.txt")
    return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
  const n = Number(pathname.match(/^\/page-(\d+)$/)?.[1] ?? Number.NaN);
  if (Number.isNaN(n)) return void res.writeHead(404).end();
  seed = 1000 + n;
  const paragraphs = Array.from(
    { length: 8 },
    () => `<p>${Array.from({ length: 4 }, sentence).join(" ")}</p>`,
  );
  res
    .writeHead(200, { "content-type": "text/html; charset=utf-8" })
    .end(
      `<!doctype html><html><head><title>Page ${n}</title></head><body><nav>Home About Contact</nav><main><h1>Page ${n}</h1>${paragraphs.join("")}</main><footer>Footer</footer></body></html>`,
    );
});
await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
const port = (site.address() as AddressInfo).port;
const ingestOrg = orgs[1] as { id: number; token: string };
const created = await app.inject({
  method: "POST",
  url: `/api/v2/kb/knowledgebase?token=${ingestOrg.token}`,
  payload: { title: "Loopback site" },
});
const ingestKb = created.json().knowledgeBase.id as number;
const ingestStarted = performance.now();
const added = await app.inject({
  method: "POST",
  url: `/api/v2/kb/knowledgebase/${ingestKb}/document?token=${ingestOrg.token}`,
  payload: { urls: Array.from({ length: PAGES }, (_, i) => `http://127.0.0.1:${port}/page-${i}`) },
});
if (added.statusCode !== 200) throw new Error(`adding pages failed: ${added.body}`);
await app.context.jobs.idle([ingestDocumentJob], 600_000);
const ingestSeconds = (performance.now() - ingestStarted) / 1000;
const listed = await app.inject({
  method: "GET",
  url: `/api/v2/kb/knowledgebase/${ingestKb}?token=${ingestOrg.token}`,
});
const progress = listed.json().knowledgeBase.progress as { indexed: number; failed: number };
await new Promise<void>((resolve) => site.close(() => resolve()));

await app.close();
if (!PGLITE && !process.env.BENCH_KEEP && !REUSE)
  await adminQuery(`drop database if exists ${DB_NAME} with (force)`);

console.log(
  `query (search of the knowledge tool, ${QUERIES} queries, ${TARGET_CHUNKS} passages in the organisation): p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (target <= ${TARGET_P95_MS} ms${SMOKE ? ", checked at full size" : ""}) on ${PGLITE ? "PGlite" : "PostgreSQL"}`,
);
console.log(
  `ingestion: ${progress.indexed} of ${PAGES} loopback pages indexed (${progress.failed} failed) in ${ingestSeconds.toFixed(1)} s: ${(progress.indexed / ingestSeconds).toFixed(1)} pages/s`,
);
console.log(
  `recall@3: ${hits}/${LABELLED.length} = ${recall.toFixed(2)} on the labelled set${misses.length ? ` (missed: ${misses.join(" | ")})` : ""}`,
);
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
const bench = "knowledge-base";
reportFigure({ bench, name: "query p50", value: p50, unit: "ms", better: "lower" });
reportFigure({ bench, name: "query p95", value: p95, unit: "ms", target: TARGET_P95_MS, better: "lower" });
reportFigure({
  bench,
  name: "ingestion rate",
  value: progress.indexed / ingestSeconds,
  unit: "pages/s",
  better: "higher",
});
reportFigure({
  bench,
  name: "pages not indexed",
  value: PAGES - progress.indexed,
  unit: "pages",
  target: 0,
  better: "lower",
});
reportFigure({ bench, name: "recall@3", value: recall, unit: "share", better: "higher" });
if (progress.indexed !== PAGES) process.exit(1);
if (!PGLITE && p95 > TARGET_P95_MS) process.exit(1);
