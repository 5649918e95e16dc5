// Issue 30, C1 and "the class, not the instance": text from outside never ends the process. A knowledge-base
// document with NUL bytes used to make the job runner store its SQL parameters as jsonb, which refused
// them, and Node exited on every instance that retried the job. Here: that exact reproduction, then every
// route that takes text, every upload and the jobs with text in their payload, given NUL, lone surrogates,
// U+FFFF and other noncharacters, C0 controls, a 1 MB line and invalid UTF-8. No answer may be 5xx, no
// rejection may go unhandled, every queued job must end, and the server must still answer.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { routeTable } from "@switchboard/api";
import { isCleanText } from "@switchboard/core";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { within } from "../../../vitest.time-limits.ts";
import { issueSessionToken } from "../src/modules/auth/sessions.ts";
import { aiReplyJob } from "../src/modules/inbox/jobs.ts";
import { createKbFetcher } from "../src/modules/knowledge-base/fetcher.ts";
import { ingestDocumentJob } from "../src/modules/knowledge-base/jobs.ts";
import { createKnowledgeBaseRepository } from "../src/modules/knowledge-base/knowledge-base.repository.ts";
import {
  createKnowledgeBaseService,
  INDEXING_FAILED,
} from "../src/modules/knowledge-base/knowledge-base.service.ts";
import { runTaskJob } from "../src/modules/tasks/jobs.ts";
import { unexpectedErrorCount } from "../src/process-guard.ts";
import { type TestClient, testClient } from "./api-client.ts";
import { buildHierarchy } from "./fixtures.ts";
import { buildTestApp, logCapture } from "./helpers.ts";
import { encodeComponent, valueArbitrary } from "./route-fuzz.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 30);
/** One line of 1 MB (no line break in it). */
const MEGABYTE_LINE = "x".repeat(1024 * 1024);
/** Text that passes validation but must not be kept: C0 controls and noncharacters (cleaned on entry). */
const DIRTY = "\u0001\u0007\u001b\u001f\ufffe\uffff\ufdd0\u{10ffff}";
/** Bytes that are not UTF-8: a lone continuation byte, a cut-short sequence, an overlong, 0xFF. */
const INVALID_UTF8 = Buffer.from([0x80, 0xe2, 0x82, 0x41, 0xc0, 0xaf, 0xff]);

type Page = { type: string; body: Buffer };
type Site = { url: (path: string) => string; pages: Record<string, Page>; close: () => Promise<void> };

/** Pages on loopback (allowed with OUTBOUND_ALLOWLIST), as a user's own site could serve them. */
async function startSite(pages: Record<string, Page>): Promise<Site> {
  const server: Server = createServer((req, res) => {
    const page = pages[(req.url ?? "/").split("?")[0] ?? "/"];
    if (!page) res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    else res.writeHead(200, { "content-type": page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    pages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const logs = logCapture();
let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let site: Site;
let token: string;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
let unexpectedBefore = 0;

beforeAll(async () => {
  process.on("unhandledRejection", onRejection);
  site = await startSite({
    "/robots.txt": { type: "text/plain", body: Buffer.from("User-agent: *\nAllow: /\n") },
    "/nul.html": {
      type: "text/html; charset=utf-8",
      body: Buffer.concat([
        Buffer.from("<html><head><title>Opening\u0000 hours</title></head><body><h1>Opening hours</h1><p>"),
        Buffer.from("We open at nine\u0000 on weekdays\uffff and at ten on Saturdays."),
        INVALID_UTF8,
        Buffer.from("</p></body></html>"),
      ]),
    },
    "/nul.txt": { type: "text/plain", body: Buffer.from("Parking\u0000 is free behind the clinic.\u0000") },
  });
  // Addresses with NUL (raw and as a reference), and a reference to no character at all.
  const loc = (text: string) => `<url><loc>${text}</loc></url>`;
  site.pages["/sitemap.xml"] = {
    type: "application/xml",
    body: Buffer.from(
      `<?xml version="1.0"?><urlset>${loc(site.url("/nul&#0;.txt"))}${loc(`${site.url("/nul.html")}\u0000`)}${loc("&#99999999;")}${loc("&#x110000;")}</urlset>`,
    ),
  };
  app = await buildTestApp(
    { OUTBOUND_ALLOWLIST: "127.0.0.1:*", LOG_LEVEL: "warn" },
    { logDestination: logs.stream },
  );
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  unexpectedBefore = unexpectedErrorCount();
});
afterEach(() => {
  expect(rejections).toEqual([]);
});
afterAll(async () => {
  await app?.close();
  await site?.close();
  process.off("unhandledRejection", onRejection);
});

/** The server still answers, and counted nothing unexpected. */
async function expectAlive() {
  const ready = await app.inject({ method: "GET", url: "/readyz" });
  expect(ready.statusCode).toBe(200);
  expect(ready.json().unexpectedErrors).toBe(unexpectedBefore);
  const account = await client(token).call(api.getAccount);
  expect(account.account.id).toBe(world.accounts.O1.id);
}

const upload = (kbId: number, name: string, type: string, body: Buffer | string) => {
  const form = new FormData();
  form.append("file", new Blob([body], { type }), name);
  return client(token).call(api.uploadKbDocument, { params: { id: kbId }, form });
};

describe("C1: a knowledge-base document with NUL bytes", { timeout: within(60_000) }, () => {
  it("is indexed without them, from an upload and from a page; the job ends and the server goes on", async () => {
    const { knowledgeBase } = await client(token).call(api.createKnowledgeBase, { body: { title: "C1" } });
    // The probe's upload: 50 bytes of text with NUL in them.
    const fifty = Buffer.from("Grooming\u0000 costs $60\u0000 for our long-haired cats!!!!!");
    expect(fifty.length).toBe(50);
    await upload(knowledgeBase.id, "nul.txt", "text/plain", fifty);
    await client(token).call(api.addKbDocuments, {
      params: { id: knowledgeBase.id },
      body: { urls: [site.url("/nul.html"), site.url("/nul.txt")] },
    });
    await app.context.jobs.idle([ingestDocumentJob], 45_000);

    const { documents } = await client(token).call(api.getKnowledgeBase, {
      params: { id: knowledgeBase.id },
    });
    expect(documents.map((document) => [document.state, document.reason])).toEqual([
      ["indexed", null],
      ["indexed", null],
      ["indexed", null],
    ]);
    expect(documents.find((document) => document.url === site.url("/nul.html"))?.title).toBe("Opening hours");
    const grooming = await client(token).call(api.queryKnowledgeBase, {
      params: { id: knowledgeBase.id },
      body: { query: "grooming long-haired cats" },
    });
    expect(grooming.passages[0]?.text).toBe("Grooming costs $60 for our long-haired cats!!!!!");
    const hours = await client(token).call(api.queryKnowledgeBase, {
      params: { id: knowledgeBase.id },
      body: { query: "weekdays Saturdays" },
    });
    expect(hours.passages[0]?.text).toContain("We open at nine on weekdays and at ten on Saturdays.\ufffd");
    for (const passage of [...grooming.passages, ...hours.passages])
      expect(isCleanText(passage.text)).toBe(true);
    expect(await app.context.jobs.failed(ingestDocumentJob)).toEqual([]);
    await expectAlive();
  });

  it("a document whose passages cannot be stored ends failed after its last attempt, not 'fetching'", async () => {
    const db = app.context.database.db;
    const { knowledgeBase } = await client(token).call(api.createKnowledgeBase, {
      body: { title: "Refused" },
    });
    const [document] = await createKnowledgeBaseRepository(db).insertDocuments([
      {
        orgId: world.accounts.O1.id,
        knowledgeBaseId: knowledgeBase.id,
        sourceKind: "text",
        title: "Refused",
        sourceText: "The database refuses this passage: BOOM.",
        state: "queued",
      },
    ]);
    const documentId = document?.id as number;
    // A failure of ours while storing the passages (here a trigger; a NUL did it before text was cleaned).
    await db.execute(
      sql.raw(`create function refuse_boom() returns trigger language plpgsql as $$
        begin if new.content like '%BOOM%' then raise exception 'passage refused'; end if; return new; end $$`),
    );
    await db.execute(
      sql.raw(
        "create trigger refuse_boom before insert on kb_chunks for each row execute function refuse_boom()",
      ),
    );
    try {
      const service = createKnowledgeBaseService({
        db,
        jobs: app.context.jobs,
        fetcher: createKbFetcher({ outbound: app.context.outbound, timeoutMs: 1000 }),
        storage: app.context.storage,
        embeddings: null,
        log: app.log,
      });
      const attempt = (finalAttempt: boolean) => ({
        id: "test",
        retryCount: finalAttempt ? 3 : 0,
        finalAttempt,
        signal: new AbortController().signal,
      });
      const stateOf = async () =>
        (await client(token).call(api.getKnowledgeBase, { params: { id: knowledgeBase.id } })).documents[0];
      // An attempt before the last: the job fails (and is retried), the document waits as queued.
      await expect(service.ingest({ documentId }, attempt(false))).rejects.toThrow(
        /Failed query: insert into "kb_chunks"/,
      );
      expect(await stateOf()).toMatchObject({ state: "queued" });
      await service.ingest({ documentId }, attempt(true));
      expect(await stateOf()).toMatchObject({ state: "failed", reason: INDEXING_FAILED });
    } finally {
      await db.execute(sql.raw("drop trigger refuse_boom on kb_chunks"));
      await db.execute(sql.raw("drop function refuse_boom()"));
    }
  });

  it("reads a sitemap whose addresses hold NUL or no character at all", async () => {
    const answer = await client(token).call(api.discoverSitemap, { body: { url: site.url("/sitemap.xml") } });
    expect(answer.urls).toEqual([site.url("/nul.txt"), site.url("/nul.html")]);
    await expectAlive();
  });
});

// ---------------------------------------------------------------------------------------------------------
// Every route that takes text

describe("a request's text", () => {
  it("is kept without controls and noncharacters; with NUL it is refused, naming the field", async () => {
    const created = await client(token).call(api.createKnowledgeBase, {
      body: { title: `Front${DIRTY} desk\u0007 FAQ` },
    });
    expect(created.knowledgeBase.title).toBe("Front desk FAQ");
    const refused = await app.inject({
      method: "POST",
      url: `${api.createKnowledgeBase.path}?token=${token}`,
      headers: { "content-type": "application/json" },
      payload: '{"title":"Front\\u0000desk"}',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`title: ${api.TEXT_NUL_MESSAGE}`);
  });
});

type Json = Record<string, unknown>;
const toSchema = (schema: z.ZodType | undefined): Json | undefined =>
  schema ? (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json) : undefined;

/** `value` with `change` applied to each string in it (values, not keys), and how many there were. */
function mapStrings(value: unknown, change: (text: string, index: number) => string): [unknown, number] {
  let count = 0;
  const walk = (current: unknown): unknown => {
    if (typeof current === "string") return change(current, count++);
    if (Array.isArray(current)) return current.map(walk);
    if (current && typeof current === "object")
      return Object.fromEntries(Object.entries(current).map(([key, inner]) => [key, walk(inner)]));
    return current;
  };
  const mapped = walk(value);
  return [mapped, count];
}

/** Each string with DIRTY added (cleaned on entry: the request must go as it would without it). */
const dirty = (text: string) => `${text}${DIRTY}`;
const VARIANTS: { note: string; change: (text: string, index: number) => string }[] = [
  { note: "as generated", change: (text) => text },
  { note: "C0 controls and noncharacters", change: dirty },
  { note: "NUL", change: (text) => `${text}\u0000` },
  { note: "lone surrogates", change: (text, index) => (index % 2 ? `\udc00${text}` : `${text}\ud800`) },
  { note: "a 1 MB line", change: (text, index) => (index === 0 ? `${text}${MEGABYTE_LINE}` : text) },
];

/** A JSON body whose strings end in bytes that are not UTF-8 (as a client with a broken encoder sends). */
function invalidUtf8Json(value: unknown): Buffer {
  const marker = "\u0002MARK\u0002";
  const [marked] = mapStrings(value, (text) => `${text}${marker}`);
  const parts = JSON.stringify(marked).split(JSON.stringify(marker).slice(1, -1));
  return Buffer.concat(
    parts.flatMap((part, i) => (i === 0 ? [Buffer.from(part)] : [INVALID_UTF8, Buffer.from(part)])),
  );
}

/** Routes whose calls may remove the fixture's users or accounts: a fresh world is built after them. */
const DESTRUCTIVE = /delete|logout|signout|disable|remove|leave|transfer/i;

type Answer = { route: string; note: string; status: number };

describe("every route that takes text", { timeout: within(120_000) }, () => {
  it("answers NUL, lone surrogates, noncharacters, a 1 MB line and invalid UTF-8 below 500", async () => {
    const db = app.context.database.db;
    const answers: Answer[] = [];
    let fuzzWorld = await buildHierarchy(app);
    const textRoutes = routeTable.filter((route) => route.produces !== "websocket" && !route.consumes);
    let index = 0;
    for (const route of textRoutes) {
      index++;
      const bodySchema = toSchema(route.body);
      const querySchema = toSchema(route.query);
      const sample = (schema: Json | undefined) =>
        schema ? fc.sample(valueArbitrary(schema), { numRuns: 1, seed: SEED + index })[0] : undefined;
      const body = sample(bodySchema);
      const query = sample(querySchema);
      const [, bodyStrings] = mapStrings(body, (text) => text);
      const [, queryStrings] = mapStrings(query, (text) => text);
      if (bodyStrings + queryStrings === 0) continue;
      const paramsOf = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] as string);
      const path = paramsOf.reduce(
        (url, name) => url.replace(`{${name}}`, String(fuzzWorld.accounts.A1.id)),
        route.path,
      );
      // One session per route (a call that signs out spoils only the rest of its own route's calls).
      const session = await issueSessionToken(db, fuzzWorld.members.o1Owner.userId, fuzzWorld.accounts.O1.id);
      const send = async (note: string, queryValue: unknown, payload?: string | Buffer) => {
        const pairs = Object.entries((queryValue ?? {}) as Json)
          .filter(([, value]) => value !== undefined)
          .map(
            ([key, value]) =>
              `${key}=${encodeComponent(typeof value === "string" ? value : JSON.stringify(value))}`,
          );
        pairs.push(`${route.auth === "adminToken" ? "adminToken" : "token"}=${session}`);
        const res = await app.inject({
          method: route.method,
          url: `${path}?${pairs.join("&")}`,
          ...(payload !== undefined ? { payload, headers: { "content-type": "application/json" } } : {}),
        });
        answers.push({ route: `${route.method} ${route.path}`, note, status: res.statusCode });
        if (res.statusCode >= 500)
          answers.push({ route: res.body.slice(0, 300), note, status: res.statusCode });
      };
      const hasBody = route.method !== "GET" && body !== undefined;
      for (const variant of VARIANTS) {
        const [changedBody] = mapStrings(body, variant.change);
        // A 1 MB query string is refused by any HTTP server before the app sees it: only bodies carry one.
        const [changedQuery] = variant.note === "a 1 MB line" ? [query] : mapStrings(query, variant.change);
        await send(variant.note, changedQuery, hasBody ? JSON.stringify(changedBody) : undefined);
      }
      if (hasBody) await send("invalid UTF-8", query, invalidUtf8Json(body));
      else {
        const broken = Object.fromEntries(Object.keys((query ?? {}) as Json).map((key) => [key, "\ufffd"]));
        await send("invalid UTF-8", broken);
      }
      if (route.method === "DELETE" || DESTRUCTIVE.test(route.id)) fuzzWorld = await buildHierarchy(app);
    }
    const serverErrors = answers.filter((answer) => answer.status >= 500);
    expect(serverErrors).toEqual([]);
    const routes = new Set(answers.map((answer) => answer.route));
    expect(routes.size).toBeGreaterThanOrEqual(80);
    // Text with controls and noncharacters is cleaned, not refused: those calls go as the generated ones
    // (but for a call that made something the first time and is refused a second one).
    const succeeded = (note: string) =>
      new Set(answers.filter((a) => a.note === note && a.status < 300).map((a) => a.route));
    const generated = succeeded("as generated");
    const cleaned = succeeded("C0 controls and noncharacters");
    expect(generated.size).toBeGreaterThanOrEqual(15);
    expect([...generated].filter((route) => !cleaned.has(route)).length).toBeLessThanOrEqual(2);
    // NUL is refused at the door (the field named). A lone surrogate is too in JSON; a query string cannot
    // carry one (its bytes are not UTF-8 and read as U+FFFD).
    const nul = answers.filter((answer) => answer.note === "NUL");
    expect(nul.filter((answer) => answer.status < 400)).toEqual([]);
    await app.context.jobs.idle([ingestDocumentJob, aiReplyJob], 60_000);
    await expectAlive();
  });
});

// ---------------------------------------------------------------------------------------------------------
// Uploads

/** Bodies every upload gets: NUL, invalid UTF-8, noncharacters and controls, a 1 MB line. */
const HOSTILE_FILES: { note: string; body: Buffer }[] = [
  { note: "NUL", body: Buffer.from("Dental\u0000 cleaning costs $320.\u0000\n") },
  {
    note: "invalid UTF-8",
    body: Buffer.concat([Buffer.from("Vaccines "), INVALID_UTF8, Buffer.from(" cost $95.")]),
  },
  { note: "noncharacters", body: Buffer.from(`Walk-ins ${DIRTY}welcome \ud800until noon.`) },
  { note: "a 1 MB line", body: Buffer.from(`Boarding ${MEGABYTE_LINE}`) },
];
const HOSTILE_NAMES = ["nul\u0000.txt", `dirty${DIRTY}.txt`, "lone\ud800.txt", `${"n".repeat(2000)}.txt`];

const form = (field: string, name: string, type: string, body: Buffer | string) => {
  const data = new FormData();
  data.append(field, new Blob([body], { type }), name);
  return data;
};

describe("uploads", { timeout: within(120_000) }, () => {
  it("knowledge-base documents of every format end indexed or failed with a reason, named in clean text", async () => {
    const { knowledgeBase } = await client(token).call(api.createKnowledgeBase, {
      body: { title: "Uploads" },
    });
    const types: [string, string][] = [
      ["text/plain", "txt"],
      ["text/html", "html"],
      ["text/markdown", "md"],
      ["text/csv", "csv"],
    ];
    let count = 0;
    for (const [type, extension] of types)
      for (const file of HOSTILE_FILES) {
        const body =
          type === "text/csv" ? Buffer.concat([Buffer.from("service,price\n"), file.body]) : file.body;
        const name = (HOSTILE_NAMES[count % HOSTILE_NAMES.length] as string).replace(/txt$/, extension);
        await upload(knowledgeBase.id, name, type, body);
        count++;
      }
    await app.context.jobs.idle([ingestDocumentJob], 60_000);
    const { documents } = await client(token).call(api.getKnowledgeBase, {
      params: { id: knowledgeBase.id },
    });
    expect(documents).toHaveLength(count);
    for (const document of documents) {
      expect(document.state === "indexed" || (document.state === "failed" && document.reason)).toBeTruthy();
      expect(isCleanText(document.title) && isCleanText(document.fileName ?? "")).toBe(true);
    }
    expect(
      documents.filter((document) => document.state !== "indexed").map((d) => [d.fileName, d.reason]),
    ).toEqual([]);
    const { passages } = await client(token).call(api.queryKnowledgeBase, {
      params: { id: knowledgeBase.id },
      body: { query: "dental cleaning" },
    });
    expect(passages[0]?.text).toBe("Dental cleaning costs $320.");
    await expectAlive();
  });

  it("task lists: rows with NUL, invalid UTF-8 or a 1 MB line, and names that are not text, answer below 500", async () => {
    const owner = client(token);
    const rows = (cell: string | Buffer) =>
      Buffer.concat([
        Buffer.from("phone,name,note\n+15035550101,"),
        Buffer.from(cell),
        Buffer.from(",hello\n"),
      ]);
    const answers: number[] = [];
    for (const file of HOSTILE_FILES)
      for (const name of HOSTILE_NAMES) {
        const res = await app.inject({
          method: "POST",
          url: `/api/v2/tasks/csv?token=${token}&agentId=${world.accounts.A1.id}&dryRun=true`,
          ...(await multipart(form("csv", name, "text/csv", rows(file.body)))),
        });
        answers.push(res.statusCode);
      }
    expect(answers.filter((status) => status >= 500)).toEqual([]);
    // A list named after its file: the name is kept as clean text.
    const imported = await owner.call(api.uploadTaskCsv, {
      query: { agentId: world.accounts.A1.id, scheduledAt: Date.now() + 24 * 3600_000 },
      form: form("csv", `Spring\u0000 list${DIRTY}.csv`, "text/csv", rows(`Ann\u0000 Lee${DIRTY}`)),
    });
    expect(imported).toMatchObject({ rows: 1, imported: 1, errorCount: 0 });
    expect(imported.list?.name).toBe("Spring list");
    expect(imported.preview[0]?.name).toBe("Ann Lee");
    await owner.call(api.changeTaskList, {
      params: { listId: imported.list?.id as number },
      body: { action: "cancel" },
    });
    await expectAlive();
  });

  it("images: file names that are not text answer below 500", async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64),
    ]);
    for (const url of ["/api/v1/profile/dp", "/api/v1/chat/media"])
      for (const name of HOSTILE_NAMES) {
        const res = await app.inject({
          method: "POST",
          url: `${url}?token=${token}`,
          ...(await multipart(form("file", name, "image/png", png))),
        });
        expect(res.statusCode).toBeLessThan(500);
      }
    await expectAlive();
  });
});

/** A FormData as `app.inject` takes it: its bytes and content type, as fetch would send them. */
async function multipart(data: FormData) {
  const request = new Request("http://inject.local", { method: "POST", body: data });
  return {
    headers: { "content-type": request.headers.get("content-type") ?? "" },
    payload: Buffer.from(await request.arrayBuffer()),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Job payloads

describe("job payloads", { timeout: within(60_000) }, () => {
  it("text in a payload is stored clean, the jobs end, and a payload the job refuses never is queued", async () => {
    const jobs = app.context.jobs;
    await jobs.send(aiReplyJob, { roomId: `room\u0000${DIRTY}\ud800` });
    await jobs.send(runTaskJob, { taskId: `task\u0000${DIRTY}`, attempt: 1 });
    await expect(jobs.send(aiReplyJob, { roomId: MEGABYTE_LINE })).rejects.toThrow(z.ZodError);
    await jobs.idle([aiReplyJob, runTaskJob], 30_000);
    for (const definition of [aiReplyJob, runTaskJob])
      for (const failed of await jobs.failed(definition)) {
        expect(isCleanText(failed.error ?? "")).toBe(true);
        expect((failed.error ?? "").length).toBeLessThanOrEqual(500);
      }
    await expectAlive();
  });
});
