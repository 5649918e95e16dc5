import * as api from "@switchboard/api";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { kbChunks, kbLexemes } from "../../db/schema/index.ts";
import { ingestDocumentJob } from "./jobs.ts";
import { createKnowledgeBaseRepository } from "./knowledge-base.repository.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
let token: string;
let kbId: number;
let orgId: number;

const idle = () => app.context.jobs.idle([ingestDocumentJob], 60_000);
const addText = (title: string, text: string, as = token, id = kbId) =>
  client(as).call(api.addKbDocuments, { params: { id }, body: { title, text } });
const query = async (text: string, limit = 5) =>
  (await client(token).call(api.queryKnowledgeBase, { params: { id: kbId }, body: { query: text, limit } }))
    .passages;

/** kb_lexemes of an organisation, as a map lexeme -> passages ("" -> all its passages). */
async function lexemes(org: number): Promise<Map<string, number>> {
  const rows = await app.context.database.db.select().from(kbLexemes).where(eq(kbLexemes.orgId, org));
  return new Map(rows.map((row) => [row.lexeme, row.chunks]));
}
/** What kb_lexemes should say of a lexeme: the organisation's passages that hold it, counted. */
async function passagesWith(org: number, lexeme: string): Promise<number> {
  const [row] = await app.context.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(kbChunks)
    .where(and(eq(kbChunks.orgId, org), sql`${kbChunks.tsv} @@ ${`'${lexeme}'`}::tsquery`));
  return Number(row?.n ?? 0);
}

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  client = testClient(app);
  token = world.members.o1Owner.token;
  orgId = world.accounts.O1.id;
  kbId = (await client(token).call(api.createKnowledgeBase, { body: { title: "Pet shop" } })).knowledgeBase
    .id;
  // Many passages about opening hours (some say it again and again), one about iguanas, one about chargers.
  for (let i = 0; i < 12; i++)
    await addText(
      `Hours ${i}`,
      `Opening hours of branch ${i}: the shop is opening at nine. Opening hours change in summer, and opening on Sundays is from ten.`,
    );
  await addText("Reptiles", "We sell iguana food and heat lamps for every terrarium.");
  await addText("Parking", "Electric cars can use the charging points in our car park.");
  await addText("Short hours", "Opening hours: nine to five.");
  await idle();
}, within(120_000));
afterAll(async () => {
  await app?.close();
});

describe("knowledge-base search", { timeout: within(120_000) }, () => {
  it("keeps kb_lexemes equal to the organisation's passages, word by word", async () => {
    const counted = await lexemes(orgId);
    const [all] = await app.context.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(kbChunks)
      .where(eq(kbChunks.orgId, orgId));
    expect(counted.get("")).toBe(Number(all?.n));
    expect(counted.get("")).toBe(15);
    for (const lexeme of ["open", "iguana", "charg", "hour", "nine"])
      expect(counted.get(lexeme), lexeme).toBe(await passagesWith(orgId, lexeme));
    expect(counted.get("open")).toBe(13);
    expect(counted.get("iguana")).toBe(1);
  });

  it("weighs a rare word above a common one said many times", async () => {
    // No passage holds both words: the one with the rare word comes first, not the ones that repeat "opening".
    const passages = await query("iguana opening");
    expect(passages[0]?.title).toBe("Reptiles");
    expect(passages.length).toBe(5);
  });

  it("ranks the shortest of the passages that hold every word first", async () => {
    const passages = await query("opening hours");
    expect(passages[0]?.title).toBe("Short hours");
    expect(passages.every((passage) => passage.score > 1)).toBe(true);
  });

  it("matches a word no passage holds to the organisation's words that look like it", async () => {
    expect((await query("EV charger"))[0]?.title).toBe("Parking");
    expect((await query("iguanna"))[0]?.title).toBe("Reptiles");
    expect(await query("zebra helicopter")).toEqual([]);
  });

  it("finds the same passages whether it walks them shortest first or sorts the matches", async () => {
    const repo = createKnowledgeBaseRepository(app.context.database.db);
    const scoring = { weights: [{ lexeme: "open", idf: 0.2 }], meanLength: 10 };
    const run = (walk: boolean) =>
      repo.search(
        orgId,
        [kbId],
        { all: null, shortest: sql`'open & hour'::tsquery`, take: 4, walk },
        scoring,
        4,
      );
    const walked = await run(true);
    expect(walked.map((row) => Number(row.chunk_id))).toEqual(
      (await run(false)).map((row) => Number(row.chunk_id)),
    );
    expect(walked).toHaveLength(4);
  });

  it("follows deleted documents and knowledge bases, and counts each organisation apart", async () => {
    const other = world.members.o2Owner.token;
    const theirs = await client(other).call(api.createKnowledgeBase, { body: { title: "Theirs" } });
    await addText("Iguanas", "Iguana iguana iguana.", other, theirs.knowledgeBase.id);
    await idle();
    expect((await lexemes(orgId)).get("iguana")).toBe(1);
    expect((await lexemes(world.accounts.O2.id)).get("iguana")).toBe(1);

    const { documents } = await client(token).call(api.getKnowledgeBase, { params: { id: kbId } });
    const reptiles = documents.find((document) => document.title === "Reptiles");
    if (!reptiles) throw new Error("no Reptiles document");
    await client(token).call(api.deleteKbDocument, { params: { id: kbId, docId: reptiles.id } });
    const after = await lexemes(orgId);
    expect(after.has("iguana")).toBe(false);
    expect(after.get("")).toBe(14);
    expect(await query("iguana")).toEqual([]);

    await client(token).call(api.deleteKnowledgeBase, { params: { id: kbId } });
    expect((await lexemes(orgId)).size).toBe(0);
    expect((await lexemes(world.accounts.O2.id)).get("iguana")).toBe(1);
  });
});
