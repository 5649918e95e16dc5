import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { parseServerSentEvents } from "../../../test/model-protocol-server.ts";
import { kbChunks } from "../../db/schema/index.ts";
import { ingestDocumentJob } from "./jobs.ts";

/** A one-page PDF whose lines are `lines` (Helvetica, no compression): what a simple PDF writer makes. */
export function makePdf(lines: string[]): Buffer {
  const content = lines
    .map((line, i) => `BT /F1 12 Tf 72 ${720 - i * 16} Td (${line.replace(/[()\\]/g, "\\$&")}) Tj ET`)
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><main><h1>${title}</h1>${body}</main><footer>© Sunny Paws Veterinary Clinic</footer></body></html>`;

type Site = {
  url: (path?: string) => string;
  pages: Map<string, { type: string; body: string | Buffer }>;
  /** Requests per path, with whether they were conditional. */
  hits: { path: string; conditional: boolean; userAgent: string }[];
  close: () => Promise<void>;
};

/** A small clinic website on loopback: robots.txt, a sitemap index with a gzip sitemap, pages and a PDF. */
export async function startSite(): Promise<Site> {
  const pages = new Map<string, { type: string; body: string | Buffer }>();
  const hits: Site["hits"] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    hits.push({
      path,
      conditional: Boolean(req.headers["if-none-match"] || req.headers["if-modified-since"]),
      userAgent: String(req.headers["user-agent"] ?? ""),
    });
    const found = pages.get(path);
    if (!found) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const body = typeof found.body === "string" ? Buffer.from(found.body) : found.body;
    const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { "content-type": found.type, etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = (path = "/") => `http://127.0.0.1:${port}${path}`;
  pages.set("/robots.txt", {
    type: "text/plain",
    body: "User-agent: *\nDisallow: /private/\n\nUser-agent: BadBot\nDisallow: /\n",
  });
  pages.set("/about", {
    type: "text/html; charset=utf-8",
    body: page(
      "About Sunny Paws",
      "<p>Sunny Paws Veterinary Clinic has cared for the pets of Portland since 1998. Our team of four veterinarians treats dogs, cats and rabbits.</p><p>We are open Monday to Saturday from 8am to 6pm. Parking is free in the lot behind the clinic.</p>",
    ),
  });
  pages.set("/faq", {
    type: "text/html; charset=utf-8",
    body: page(
      "Frequently asked questions",
      "<p>Here are answers to common questions. Q: Do you treat reptiles? A: Yes, our exotic pet specialist sees reptiles on Thursdays. Q: Do you offer emergency care? A: Yes, call our emergency line at any hour and a vet will answer. Q: Can I pay in instalments? A: Yes, treatments over $500 can be paid over six months.</p>",
    ),
  });
  pages.set("/services", {
    type: "text/html; charset=utf-8",
    body: page(
      "Services and prices",
      "<h2>Vaccinations</h2><p>A puppy vaccination course costs $95 and includes three visits.</p><h2>Dental care</h2><p>Pet dental cleaning under anaesthesia costs $320, including the check-up before.</p>",
    ),
  });
  pages.set("/private/staff", {
    type: "text/html",
    body: page("Staff rota", "<p>The staff rota is confidential.</p>"),
  });
  pages.set("/leaflet.pdf", {
    type: "application/pdf",
    body: makePdf([
      "Sunny Paws grooming leaflet",
      "Our grooming salon washes and trims long-haired cats for $60.",
    ]),
  });
  const pageUrls = ["/about", "/faq", "/services", "/private/staff", "/leaflet.pdf"].map((p) => url(p));
  pages.set("/sitemap.xml", {
    type: "application/xml",
    body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${url("/sitemap-pages.xml.gz")}</loc></sitemap></sitemapindex>`,
  });
  pages.set("/sitemap-pages.xml.gz", {
    type: "application/gzip",
    body: gzipSync(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pageUrls.map((u) => `<url><loc>${u}</loc></url>`).join("")}</urlset>`,
    ),
  });
  return {
    url,
    pages,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let site: Site;
let token: string;
let kbId: number;

const idle = () => app.context.jobs.idle([ingestDocumentJob], 60_000);
const documents = async () =>
  (await client(token).call(api.getKnowledgeBase, { params: { id: kbId } })).documents;
const docByPath = async (path: string) => {
  const found = (await documents()).find((document) => document.url === site.url(path));
  if (!found) throw new Error(`no document for ${path}`);
  return found;
};
const query = (text: string, as = token, id = kbId) =>
  client(as).call(api.queryKnowledgeBase, { params: { id }, body: { query: text } });

beforeAll(async () => {
  site = await startSite();
  app = await buildTestApp({ OUTBOUND_ALLOWLIST: "127.0.0.1:*" });
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  const created = await client(token).call(api.createKnowledgeBase, { body: { title: "Clinic website" } });
  kbId = created.knowledgeBase.id;
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

// Ingestion runs real jobs (fetch, extract, index): slower than the default 20 s on a loaded machine.
describe("knowledge base", { timeout: within(120_000) }, () => {
  it("lists the pages of a sitemap index with a gzip sitemap", async () => {
    const answer = await client(token).call(api.discoverSitemap, { body: { url: site.url("/sitemap.xml") } });
    expect(answer.urls).toEqual(
      ["/about", "/faq", "/services", "/private/staff", "/leaflet.pdf"].map((p) => site.url(p)),
    );
    expect(answer.truncated).toBe(false);
    await expectRefusal(
      client(token).call(api.discoverSitemap, { body: { url: site.url("/about") } }),
      400,
      api.KB_MESSAGES.sitemapInvalid,
    );
  });

  it("ingests the picked pages as durable jobs: indexed, or failed with the reason", async () => {
    const { urls } = await client(token).call(api.discoverSitemap, {
      body: { url: site.url("/sitemap.xml") },
    });
    const added = await client(token).call(api.addKbDocuments, { params: { id: kbId }, body: { urls } });
    expect(added.documents).toHaveLength(5);
    expect(added.documents.every((document) => document.state === "queued")).toBe(true);
    await idle();
    const about = await docByPath("/about");
    expect(about).toMatchObject({ state: "indexed", title: "About Sunny Paws", reason: null });
    expect(about.passages).toBeGreaterThan(0);
    expect(await docByPath("/leaflet.pdf")).toMatchObject({ state: "indexed" });
    expect(await docByPath("/private/staff")).toMatchObject({
      state: "failed",
      reason: api.KB_MESSAGES.robots,
    });
    // robots.txt was obeyed: the disallowed page was never requested, and every request said who we are.
    expect(site.hits.some((hit) => hit.path === "/private/staff")).toBe(false);
    expect(site.hits.every((hit) => hit.userAgent === api.KB_USER_AGENT)).toBe(true);
    const { knowledgeBases } = await client(token).call(api.listKnowledgeBases);
    expect(knowledgeBases[0]?.progress).toEqual({ total: 5, queued: 0, fetching: 0, indexed: 4, failed: 1 });
  });

  it("answers a query with the best passages, their title and URL", async () => {
    const { passages } = await query("How much does dental cleaning cost?");
    expect(passages[0]).toMatchObject({ title: "Services and prices", url: site.url("/services") });
    expect(passages[0]?.text).toContain("$320");
    const pdf = await query("grooming long-haired cats");
    expect(pdf.passages[0]?.url).toBe(site.url("/leaflet.pdf"));
    expect(pdf.passages[0]?.text).toContain("$60");
    const exact = await client(token).call(api.queryKnowledgeBase, {
      params: { id: kbId },
      body: { query: '"exotic pet specialist"', processQuery: false },
    });
    expect(exact.passages[0]?.url).toBe(site.url("/faq"));
    expect((await query("zebra helicopter")).passages).toEqual([]);
  });

  it("lets the agent's test chat answer from the site, naming the source", async () => {
    const agentId = world.accounts.A1.id;
    await client(token).call(api.saveCampaign, {
      body: {
        agentId,
        agentInstructions: "You are the receptionist of Sunny Paws. Opening hours: Mon-Sat 8am-6pm.",
        knowledgeBaseIds: [kbId],
      },
    });
    const res: unknown = await client(token).call(api.testChat, {
      body: { agentId, message: "Do you treat reptiles?" },
    });
    const events = parseServerSentEvents(res as string) as { event: string; data: { delta?: string } }[];
    const text = events
      .filter((e) => e.event === "text")
      .map((e) => e.data.delta)
      .join("");
    expect(events.some((e) => e.event === "tool-call")).toBe(true);
    expect(text).toContain("Yes, our exotic pet specialist sees reptiles on Thursdays.");
    expect(text).toContain(`Source: Frequently asked questions (${site.url("/faq")})`);
  });

  it("refreshes only what changed (conditional GET, then content hash)", async () => {
    const about = await docByPath("/about");
    const services = await docByPath("/services");
    const before = site.hits.length;
    await client(token).call(api.refreshKbDocument, { params: { id: kbId, docId: about.id } });
    await idle();
    const aboutHits = site.hits.slice(before).filter((hit) => hit.path === "/about");
    expect(aboutHits).toEqual([expect.objectContaining({ conditional: true })]);
    expect((await docByPath("/about")).indexedAt).toBe(about.indexedAt);

    site.pages.set("/services", {
      type: "text/html",
      body: page("Services and prices", "<h2>Dental care</h2><p>Pet dental cleaning now costs $280.</p>"),
    });
    await client(token).call(api.refreshKbDocument, { params: { id: kbId, docId: services.id } });
    await idle();
    const refreshed = await docByPath("/services");
    expect(refreshed.state).toBe("indexed");
    expect(refreshed.indexedAt).not.toBe(services.indexedAt);
    const { passages } = await query("dental cleaning cost");
    expect(passages[0]?.text).toContain("$280");
    expect(passages.some((passage) => passage.text.includes("$320"))).toBe(false);
  });

  it("indexes uploaded files (PDF, Markdown, CSV, text) and pasted text", async () => {
    const upload = async (name: string, type: string, body: Buffer | string) => {
      const form = new FormData();
      form.append("file", new Blob([body], { type }), name);
      return client(token).call(api.uploadKbDocument, { params: { id: kbId }, form });
    };
    await upload(
      "boarding.pdf",
      "application/pdf",
      makePdf(["Boarding", "Overnight boarding for dogs costs $45 a night."]),
    );
    await upload("diet.md", "text/markdown", "# Diet advice\n\nFeed **senior cats** a kidney-friendly diet.");
    await upload(
      "staff.csv",
      "text/csv",
      "name,speciality\nDr. Alvarez,ophthalmology\nDr. Chen,orthopaedics\n",
    );
    await upload("notes.txt", "text/plain", "Microchipping takes ten minutes and costs $30.");
    await client(token).call(api.addKbDocuments, {
      params: { id: kbId },
      body: { title: "Holiday hours", text: "Over Christmas the clinic closes at noon on the 24th." },
    });
    await expectRefusal(
      upload("photo.png", "image/png", Buffer.from([0x89, 0x50])),
      400,
      api.KB_MESSAGES.fileType,
    );
    await idle();
    expect((await query("overnight boarding dogs")).passages[0]?.title).toBe("boarding");
    expect((await query("senior cats diet")).passages[0]?.title).toBe("Diet advice");
    expect((await query("orthopaedics")).passages[0]?.text).toContain(
      "name: Dr. Chen; speciality: orthopaedics",
    );
    expect((await query("microchipping")).passages[0]?.text).toContain("$30");
    expect((await query("Christmas")).passages[0]?.title).toBe("Holiday hours");
    const states = (await documents()).map((document) => document.state);
    expect(states.filter((state) => state === "indexed")).toHaveLength(9);
  });

  it("deleting a document removes its passages", async () => {
    const faq = await docByPath("/faq");
    expect((await query("reptiles")).passages).not.toEqual([]);
    await client(token).call(api.deleteKbDocument, { params: { id: kbId, docId: faq.id } });
    expect((await query("reptiles")).passages).toEqual([]);
    const left = await app.context.database.db.select().from(kbChunks).where(eq(kbChunks.documentId, faq.id));
    expect(left).toEqual([]);
    await expectRefusal(
      client(token).call(api.deleteKbDocument, { params: { id: kbId, docId: faq.id } }),
      404,
      api.KB_MESSAGES.documentNotFound,
    );
  });

  it("keeps each organisation's knowledge bases to itself", async () => {
    const other = world.members.o2Owner.token;
    expect((await client(other).call(api.listKnowledgeBases)).knowledgeBases).toEqual([]);
    const calls = [
      () => client(other).call(api.getKnowledgeBase, { params: { id: kbId } }),
      () => client(other).call(api.listKbDocuments, { params: { id: kbId } }),
      () => query("reptiles", other),
      () => client(other).call(api.addKbDocuments, { params: { id: kbId }, body: { text: "intruder" } }),
      () => client(other).call(api.deleteKnowledgeBase, { params: { id: kbId } }),
    ];
    for (const call of calls) await expectRefusal(call(), 404, api.KB_MESSAGES.notFound);
    const about = await docByPath("/about");
    await expectRefusal(
      client(other).call(api.deleteKbDocument, { params: { id: kbId, docId: about.id } }),
      404,
      api.KB_MESSAGES.notFound,
    );
    // Their agent cannot be given it, and their own knowledge base with the same words finds only theirs.
    await expectRefusal(
      client(other).call(api.saveCampaign, {
        body: { agentId: world.accounts.A2.id, agentInstructions: "Hi", knowledgeBaseIds: [kbId] },
      }),
      400,
      api.KB_MESSAGES.unknownKnowledgeBase,
    );
    const theirs = await client(other).call(api.createKnowledgeBase, { body: { title: "Theirs" } });
    expect((await query("parking", other, theirs.knowledgeBase.id)).passages).toEqual([]);
    expect((await query("parking")).passages[0]?.url).toBe(site.url("/about"));
  });

  it("deletes a knowledge base with everything in it", async () => {
    await client(token).call(api.deleteKnowledgeBase, { params: { id: kbId } });
    await expectRefusal(query("parking"), 404, api.KB_MESSAGES.notFound);
    const left = await app.context.database.db
      .select()
      .from(kbChunks)
      .where(eq(kbChunks.knowledgeBaseId, kbId));
    expect(left).toEqual([]);
  });
});
