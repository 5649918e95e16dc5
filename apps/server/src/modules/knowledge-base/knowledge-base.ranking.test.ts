import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { answers, kbPages, kbQuestions, serveKbSites } from "../../../test/fixtures/kb-sites.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { htmlToText } from "./extract.ts";
import { ingestDocumentJob } from "./jobs.ts";

// Issue 32, item 9: questions in a caller's words find the passage that answers them, and navigation and
// link captions ("See our parking and whitening pages") are not content. Two fixture sites (a vet clinic and
// a dental practice, with menus, sidebars, footers and captions) are added by URL and indexed by the jobs.

let app: FastifyInstance;
let client: TestClient;
let sites: Awaited<ReturnType<typeof serveKbSites>>;
let token: string;
const kbOf = new Map<string, number>();

const ask = async (site: string, query: string) =>
  (
    await client(token).call(api.queryKnowledgeBase, {
      params: { id: kbOf.get(site) as number },
      body: { query, limit: 3 },
    })
  ).passages;
const question = (site: string, text: string) => {
  const found = kbQuestions().find((item) => item.site === site && item.question === text);
  if (!found) throw new Error(`no labelled question "${text}"`);
  return found;
};

beforeAll(async () => {
  app = await buildTestApp({ OUTBOUND_ALLOWLIST: "127.0.0.1:*" });
  client = testClient(app);
  const world = await buildHierarchy(app);
  token = world.members.o1Owner.token;
  sites = await serveKbSites();
  for (const site of ["bluebird-dental", "maple-vet"]) {
    const { knowledgeBase } = await client(token).call(api.createKnowledgeBase, { body: { title: site } });
    kbOf.set(site, knowledgeBase.id);
    await client(token).call(api.addKbDocuments, {
      params: { id: knowledgeBase.id },
      body: { urls: kbPages(site).map((page) => sites.url(site, page)) },
    });
  }
  await app.context.jobs.idle([ingestDocumentJob], 120_000);
}, within(180_000));
afterAll(async () => {
  await sites?.close();
  await app?.close();
});

describe("knowledge-base answers to callers' questions", { timeout: within(60_000) }, () => {
  it("keeps menus, footers and link captions out of a page's text", async () => {
    const home = htmlToText(
      '<html><head><title>Bluebird Dental</title></head><body><header><nav><a href="/parking">Parking</a> <a href="/whitening">Whitening</a></nav></header>' +
        "<main><h1>Gentle family dentistry</h1><p>Bluebird Dental has cared for families in Fairview for twenty years, from a child's first check-up to implants and crowns.</p>" +
        '<p>See our <a href="/parking">parking</a> and <a href="/whitening">whitening</a> pages.</p>' +
        '<p>We accept most insurance plans; the <a href="/insurance">list is here</a> and we file claims for you, so you only pay your share on the day of treatment.</p></main>' +
        '<footer><ul><li><a href="/hours">Hours</a></li><li><a href="/parking">Where to park</a></li></ul></footer></body></html>',
    );
    expect(home.text).toContain("cared for families in Fairview");
    // Content with a link in it stays; a caption made of links does not.
    expect(home.text).toContain("We accept most insurance plans");
    expect(home.text).not.toMatch(/See our parking|Where to park|Whitening/);
  });

  it("answers 'Where can I park?' from the parking page, not the home page's caption", async () => {
    const passages = await ask("bluebird-dental", "Where can I park?");
    expect(passages[0]?.url).toBe(sites.url("bluebird-dental", "parking.html"));
    expect(answers(question("bluebird-dental", "Where can I park?"), passages[0] as never)).toBe(true);
    for (const passage of passages) expect(passage.text).not.toMatch(/See our parking|Where to park/);
    // The caption is not indexed at all: its words find no passage of the home page.
    const captions = await ask("bluebird-dental", "whitening pages");
    expect(captions.map((passage) => passage.url)).not.toContain(sites.url("bluebird-dental", "index.html"));
  });

  it("finds the exotic-pets passage for 'Do you treat reptiles?' and 'Which days do you see snakes?'", async () => {
    for (const text of ["Do you treat reptiles?", "Which days do you see snakes?"]) {
      const passages = await ask("maple-vet", text);
      expect(passages[0]?.url, text).toBe(sites.url("maple-vet", "exotics.html"));
      expect(answers(question("maple-vet", text), passages[0] as never), text).toBe(true);
    }
    // The days are in the passage the snakes question finds.
    expect((await ask("maple-vet", "Which days do you see snakes?"))[0]?.text).toContain(
      "every Tuesday and Thursday",
    );
  });

  it("still takes websearch syntax when processQuery is false", async () => {
    const { passages } = await client(token).call(api.queryKnowledgeBase, {
      params: { id: kbOf.get("maple-vet") as number },
      body: { query: '"bearded dragons"', processQuery: false, limit: 3 },
    });
    expect(passages[0]?.url).toBe(sites.url("maple-vet", "exotics.html"));
    const none = await client(token).call(api.queryKnowledgeBase, {
      params: { id: kbOf.get("maple-vet") as number },
      body: { query: "Which days do you see snakes?", processQuery: false, limit: 3 },
    });
    expect(none.passages).toEqual([]);
  });
});
