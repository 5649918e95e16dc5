import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { type Database, executeRows } from "../../db/client.ts";
import { kbChunks, kbDocuments, knowledgeBases } from "../../db/schema/index.ts";
import type { Chunk } from "./extract.ts";

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type DocumentRow = typeof kbDocuments.$inferSelect;
export type NewDocument = typeof kbDocuments.$inferInsert;

export type StateCounts = { queued: number; fetching: number; indexed: number; failed: number };
export type KbStats = StateCounts & { total: number; passages: number };

export type PassageRow = {
  chunk_id: number | string;
  document_id: number;
  knowledge_base_id: number;
  heading: string;
  content: string;
  title: string;
  url: string | null;
  score: number | string;
};

/** The words of a query as the index holds them, and how common each is in the organisation. */
export type QueryTerms = { count: number; meanLength: number; terms: { lexeme: string; chunks: number }[] };

/** How candidates are scored: the query's lexemes with their inverse document frequency. */
export type SearchScoring = { weights: { lexeme: string; idf: number }[]; meanLength: number };

// BM25's constants. A passage's score is the sum of the weights (idf) of the query's words it holds, each
// counted once, divided by its length against the mean (b): among passages holding the same words the
// shortest ranks first.
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** A lexeme as a tsquery literal: quoted, so no character of it is read as an operator. */
export function tsqueryLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

const emptyStats = (): KbStats => ({ total: 0, queued: 0, fetching: 0, indexed: 0, failed: 0, passages: 0 });

/** The only code that touches the knowledge-base tables. Every read is scoped by organisation. */
export function createKnowledgeBaseRepository(db: Database) {
  return {
    async list(orgId: number): Promise<KnowledgeBaseRow[]> {
      return db
        .select()
        .from(knowledgeBases)
        .where(eq(knowledgeBases.orgId, orgId))
        .orderBy(desc(knowledgeBases.id));
    },

    async count(orgId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(knowledgeBases)
        .where(eq(knowledgeBases.orgId, orgId));
      return Number(row?.n ?? 0);
    },

    async find(orgId: number, id: number): Promise<KnowledgeBaseRow | null> {
      const [row] = await db
        .select()
        .from(knowledgeBases)
        .where(and(eq(knowledgeBases.orgId, orgId), eq(knowledgeBases.id, id)));
      return row ?? null;
    },

    async existing(orgId: number, ids: number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: knowledgeBases.id })
        .from(knowledgeBases)
        .where(and(eq(knowledgeBases.orgId, orgId), inArray(knowledgeBases.id, ids)));
      return rows.map((row) => row.id);
    },

    async insert(orgId: number, title: string): Promise<KnowledgeBaseRow> {
      const [row] = await db.insert(knowledgeBases).values({ orgId, title }).returning();
      return row as KnowledgeBaseRow;
    },

    async remove(orgId: number, id: number): Promise<DocumentRow[]> {
      const documents = await db
        .select()
        .from(kbDocuments)
        .where(and(eq(kbDocuments.orgId, orgId), eq(kbDocuments.knowledgeBaseId, id)));
      await db.delete(knowledgeBases).where(and(eq(knowledgeBases.orgId, orgId), eq(knowledgeBases.id, id)));
      return documents;
    },

    async touch(id: number): Promise<void> {
      await db.update(knowledgeBases).set({ updatedAt: new Date() }).where(eq(knowledgeBases.id, id));
    },

    /** Documents per state and passages, per knowledge base of the organisation. */
    async stats(orgId: number, ids: number[]): Promise<Map<number, KbStats>> {
      const result = new Map<number, KbStats>(ids.map((id) => [id, emptyStats()]));
      if (ids.length === 0) return result;
      const rows = await db
        .select({
          kb: kbDocuments.knowledgeBaseId,
          state: kbDocuments.state,
          n: sql<number>`count(*)::int`,
          passages: sql<number>`coalesce(sum(${kbDocuments.chunkCount}), 0)::int`,
        })
        .from(kbDocuments)
        .where(and(eq(kbDocuments.orgId, orgId), inArray(kbDocuments.knowledgeBaseId, ids)))
        .groupBy(kbDocuments.knowledgeBaseId, kbDocuments.state);
      for (const row of rows) {
        const stats = result.get(row.kb);
        if (!stats) continue;
        const n = Number(row.n);
        stats[row.state] += n;
        stats.total += n;
        stats.passages += Number(row.passages);
      }
      return result;
    },

    async documents(orgId: number, knowledgeBaseId: number): Promise<DocumentRow[]> {
      return db
        .select()
        .from(kbDocuments)
        .where(and(eq(kbDocuments.orgId, orgId), eq(kbDocuments.knowledgeBaseId, knowledgeBaseId)))
        .orderBy(desc(kbDocuments.id));
    },

    async documentCount(knowledgeBaseId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(kbDocuments)
        .where(eq(kbDocuments.knowledgeBaseId, knowledgeBaseId));
      return Number(row?.n ?? 0);
    },

    async findDocument(orgId: number, knowledgeBaseId: number, id: number): Promise<DocumentRow | null> {
      const [row] = await db
        .select()
        .from(kbDocuments)
        .where(
          and(
            eq(kbDocuments.orgId, orgId),
            eq(kbDocuments.knowledgeBaseId, knowledgeBaseId),
            eq(kbDocuments.id, id),
          ),
        );
      return row ?? null;
    },

    async documentById(id: number): Promise<DocumentRow | null> {
      const [row] = await db.select().from(kbDocuments).where(eq(kbDocuments.id, id));
      return row ?? null;
    },

    async documentsByUrl(knowledgeBaseId: number, urls: string[]): Promise<DocumentRow[]> {
      if (urls.length === 0) return [];
      return db
        .select()
        .from(kbDocuments)
        .where(and(eq(kbDocuments.knowledgeBaseId, knowledgeBaseId), inArray(kbDocuments.url, urls)));
    },

    async insertDocuments(rows: NewDocument[]): Promise<DocumentRow[]> {
      if (rows.length === 0) return [];
      return db.insert(kbDocuments).values(rows).returning();
    },

    async updateDocument(id: number, patch: Partial<NewDocument>): Promise<DocumentRow | null> {
      const [row] = await db
        .update(kbDocuments)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(kbDocuments.id, id))
        .returning();
      return row ?? null;
    },

    async removeDocument(orgId: number, id: number): Promise<void> {
      await db.delete(kbDocuments).where(and(eq(kbDocuments.orgId, orgId), eq(kbDocuments.id, id)));
    },

    /** Replaces a document's passages (in the caller's transaction). */
    async replaceChunks(
      document: DocumentRow,
      chunks: Chunk[],
      embeddings?: number[][] | null,
    ): Promise<void> {
      await db.delete(kbChunks).where(eq(kbChunks.documentId, document.id));
      for (let start = 0; start < chunks.length; start += 200) {
        await db.insert(kbChunks).values(
          chunks.slice(start, start + 200).map((chunk, offset) => ({
            orgId: document.orgId,
            knowledgeBaseId: document.knowledgeBaseId,
            documentId: document.id,
            position: start + offset,
            heading: chunk.heading,
            content: chunk.content,
            embedding: embeddings?.[start + offset] ?? null,
          })),
        );
      }
    },

    async chunkCountOf(documentId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(kbChunks)
        .where(eq(kbChunks.documentId, documentId));
      return Number(row?.n ?? 0);
    },

    /** Locks the document row for the rest of the transaction; null when it was deleted. */
    async lockDocument(id: number): Promise<DocumentRow | null> {
      const [row] = await db.select().from(kbDocuments).where(eq(kbDocuments.id, id)).for("update");
      return row ?? null;
    },

    /**
     * The lexemes of a query (english configuration, as the passages) with how many of the organisation's
     * passages hold each, and the organisation's passage count and mean passage length (in lexemes).
     */
    async queryTerms(orgId: number, query: string): Promise<QueryTerms> {
      const rows = await executeRows<{ lexeme: string; chunks: number; lexemes: number | string }>(
        db,
        sql`
          select t.lexeme, coalesce(l.chunks, 0) as chunks, coalesce(l.lexemes, 0) as lexemes
          from (select '' as lexeme union all
            select unnest(tsvector_to_array(to_tsvector('english', ${query})))) t
          left join kb_lexemes l on l.org_id = ${orgId} and l.lexeme = t.lexeme`,
      );
      const total = rows.find((row) => row.lexeme === "");
      const count = Number(total?.chunks ?? 0);
      return {
        count,
        meanLength: count > 0 ? Number(total?.lexemes ?? 0) / count : 1,
        terms: rows
          .filter((row) => row.lexeme !== "")
          .map((row) => ({ lexeme: row.lexeme, chunks: Number(row.chunks) })),
      };
    },

    /**
     * The lexemes of some words (english configuration, as the passages), word by word, with how many of
     * the organisation's passages hold each, and the organisation's passage count and mean passage length.
     */
    async wordLexemes(
      orgId: number,
      words: string[],
    ): Promise<{
      count: number;
      meanLength: number;
      words: { index: number; lexeme: string; chunks: number }[];
    }> {
      const rows = await executeRows<{
        index: number;
        lexeme: string;
        chunks: number;
        lexemes: number | string;
      }>(
        db,
        sql`
          select t.index, t.lexeme, coalesce(l.chunks, 0) as chunks, coalesce(l.lexemes, 0) as lexemes
          from (select -1 as index, '' as lexeme union all
            select w.index, unnest(tsvector_to_array(to_tsvector('english', w.word)))
            from (values ${sql.join(
              (words.length > 0 ? words : [""]).map((word, index) => sql`(${index}::int, ${word}::text)`),
              sql`, `,
            )}) w(index, word)) t
          left join kb_lexemes l on l.org_id = ${orgId} and l.lexeme = t.lexeme`,
      );
      const total = rows.find((row) => Number(row.index) === -1);
      const count = Number(total?.chunks ?? 0);
      return {
        count,
        meanLength: count > 0 ? Number(total?.lexemes ?? 0) / count : 1,
        words: rows
          .filter((row) => Number(row.index) >= 0)
          .map((row) => ({ index: Number(row.index), lexeme: row.lexeme, chunks: Number(row.chunks) })),
      };
    },

    /**
     * For words no passage of the organisation holds, its lexemes that look most like them (trigram
     * similarity at least `threshold`, at most two a word), with how many passages hold each.
     */
    async similarLexemes(
      orgId: number,
      words: string[],
      threshold: number,
    ): Promise<{ word: string; lexeme: string; chunks: number; similarity: number }[]> {
      if (words.length === 0) return [];
      const rows = await executeRows<{
        word: string;
        lexeme: string;
        chunks: number;
        similarity: number;
      }>(
        db,
        sql`
          select w.word, l.lexeme, l.chunks, l.similarity
          from (values ${sql.join(
            words.map((word) => sql`(${word}::text)`),
            sql`, `,
          )}) w(word)
          cross join lateral (
            select k.lexeme, k.chunks, similarity(lower(k.lexeme), w.word) as similarity
            from kb_lexemes k
            where k.org_id = ${orgId} and lower(k.lexeme) % w.word and k.chunks > 0
              and similarity(lower(k.lexeme), w.word) >= ${threshold}
            order by similarity(lower(k.lexeme), w.word) desc, k.lexeme
            limit 2
          ) l`,
      );
      return rows.map((row) => ({ ...row, chunks: Number(row.chunks), similarity: Number(row.similarity) }));
    },

    /**
     * Passages of some knowledge bases of one organisation, best first by {@link SearchScoring}: every
     * passage that matches `all`, and the `take` shortest passages that match `shortest` (found through
     * kb_chunks_org_length_idx or, when its words are rare, kb_chunks_org_tsv_idx). Only these candidates
     * are scored, so a query of common words costs about as much as one of rare words.
     */
    async search(
      orgId: number,
      knowledgeBaseIds: number[],
      match: {
        all: SQL | null;
        shortest: SQL | null;
        take: number;
        /**
         * Whether `shortest` walks kb_chunks_org_length_idx, shortest first, until it has `take` matches
         * (words in many passages), or sorts all its matches found with kb_chunks_org_tsv_idx (words in few).
         */
        walk: boolean;
      },
      scoring: SearchScoring,
      limit: number,
    ): Promise<PassageRow[]> {
      if (knowledgeBaseIds.length === 0 || (!match.all && !match.shortest)) return [];
      const kbs = sql.join(
        knowledgeBaseIds.map((id) => sql`${id}`),
        sql`, `,
      );
      const scope = sql`c.org_id = ${orgId} and c.knowledge_base_id in (${kbs})`;
      const parts: SQL[] = [];
      if (match.all) parts.push(sql`select c.id from kb_chunks c where ${scope} and c.tsv @@ ${match.all}`);
      if (match.shortest)
        parts.push(sql`(select c.id from kb_chunks c where ${scope} and c.tsv @@ ${match.shortest}
          order by ${match.walk ? sql`length(c.tsv)` : sql`length(c.tsv) + 0`}, c.id limit ${match.take})`);
      const terms =
        scoring.weights.length > 0
          ? sql`select v.q::tsquery as q, v.idf from (values ${sql.join(
              scoring.weights.map((w) => sql`(${tsqueryLexeme(w.lexeme)}::text, ${w.idf}::float8)`),
              sql`, `,
            )}) v(q, idf)`
          : sql`select null::tsquery as q, 0::float8 as idf where false`;
      const mean = Math.max(1, scoring.meanLength);
      // Planned with its own words (as every executeRows statement is): the best plan depends on how common
      // they are; a generic plan would walk a whole organisation's passages for a rare word.
      return executeRows<PassageRow>(
        db,
        sql`
          with terms as materialized (${terms}),
          candidates as (${sql.join(parts, sql` union `)})
          select c.id as chunk_id, c.document_id, c.knowledge_base_id, c.heading, c.content,
            d.title, d.url,
            coalesce((select sum(t.idf) from terms t where c.tsv @@ t.q), 0)
              * ${BM25_K1 + 1}::float8
              / (1 + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * length(c.tsv) / ${mean}::float8))
              as score
          from candidates m
          join kb_chunks c on c.id = m.id
          join kb_documents d on d.id = c.document_id
          order by score desc, length(c.tsv), c.id
          limit ${limit}`,
      );
    },

    /**
     * Passages of some knowledge bases of one organisation that best answer a question read as groups of
     * words (question-words.ts): the candidates of `match` (as in {@link search}) are scored by BM25 over the
     * groups, each group counting once with its best word (its weight, 1.5 times when the word is in the
     * passage's heading), and score 1 more when they hold a word of every required group.
     */
    async searchGroups(
      orgId: number,
      knowledgeBaseIds: number[],
      match: { all: SQL | null; shortest: { query: SQL; take: number; walk: boolean }[] },
      terms: { group: number; lexeme: string; idf: number; required: boolean }[],
      meanLength: number,
      limit: number,
    ): Promise<PassageRow[]> {
      if (knowledgeBaseIds.length === 0 || terms.length === 0 || (!match.all && match.shortest.length === 0))
        return [];
      const kbs = sql.join(
        knowledgeBaseIds.map((id) => sql`${id}`),
        sql`, `,
      );
      const scope = sql`c.org_id = ${orgId} and c.knowledge_base_id in (${kbs})`;
      const parts: SQL[] = [];
      if (match.all) parts.push(sql`select c.id from kb_chunks c where ${scope} and c.tsv @@ ${match.all}`);
      for (const shortest of match.shortest)
        parts.push(sql`(select c.id from kb_chunks c where ${scope} and c.tsv @@ ${shortest.query}
          order by ${shortest.walk ? sql`length(c.tsv)` : sql`length(c.tsv) + 0`}, c.id limit ${shortest.take})`);
      const required = new Set(terms.filter((term) => term.required).map((term) => term.group)).size;
      const values = sql.join(
        terms.map(
          (term) =>
            sql`(${term.group}::int, ${tsqueryLexeme(term.lexeme)}::text, ${`${tsqueryLexeme(term.lexeme)}:A`}::text, ${term.idf}::float8, ${term.required}::boolean)`,
        ),
        sql`, `,
      );
      const mean = Math.max(1, meanLength);
      return executeRows<PassageRow>(
        db,
        sql`
          with terms as materialized (
            select v.grp, v.q::tsquery as q, v.qa::tsquery as qa, v.idf, v.required
            from (values ${values}) v(grp, q, qa, idf, required)),
          candidates as (${sql.join(parts, sql` union `)}),
          scored as (
            select c.id, c.document_id, c.knowledge_base_id, c.heading, c.content, length(c.tsv) as size,
              s.total * ${BM25_K1 + 1}::float8
                / (1 + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * length(c.tsv) / ${mean}::float8))
                as bm25,
              s.covered
            from candidates m
            join kb_chunks c on c.id = m.id
            cross join lateral (
              select coalesce(sum(g.best), 0) as total, count(*) filter (where g.required) as covered
              from (
                select t.grp, bool_or(t.required) as required,
                  max(t.idf * case when c.tsv @@ t.qa then 1.5 else 1 end) as best
                from terms t where c.tsv @@ t.q group by t.grp) g) s)
          select p.id as chunk_id, p.document_id, p.knowledge_base_id, p.heading, p.content, d.title, d.url,
            (case when ${required}::int > 0 and p.covered >= ${required}::int then 1 else 0 end)
              + p.bm25 / (1 + p.bm25) as score
          from scored p
          join kb_documents d on d.id = p.document_id
          order by score desc, p.size, p.id
          limit ${limit}`,
      );
    },

    /** Embeddings of the passages of some knowledge bases (for the vector half of hybrid search). */
    async embeddings(
      orgId: number,
      knowledgeBaseIds: number[],
      limit: number,
    ): Promise<{ id: number; embedding: number[] }[]> {
      if (knowledgeBaseIds.length === 0) return [];
      const rows = await db
        .select({ id: kbChunks.id, embedding: kbChunks.embedding })
        .from(kbChunks)
        .where(
          and(
            eq(kbChunks.orgId, orgId),
            inArray(kbChunks.knowledgeBaseId, knowledgeBaseIds),
            sql`${kbChunks.embedding} is not null`,
          ),
        )
        .limit(limit);
      return rows.map((row) => ({ id: row.id, embedding: row.embedding ?? [] }));
    },

    async passagesByIds(orgId: number, ids: number[]): Promise<PassageRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({
          chunk_id: kbChunks.id,
          document_id: kbChunks.documentId,
          knowledge_base_id: kbChunks.knowledgeBaseId,
          heading: kbChunks.heading,
          content: kbChunks.content,
          title: kbDocuments.title,
          url: kbDocuments.url,
        })
        .from(kbChunks)
        .innerJoin(kbDocuments, eq(kbDocuments.id, kbChunks.documentId))
        .where(and(eq(kbChunks.orgId, orgId), inArray(kbChunks.id, ids)));
      return rows.map((row) => ({ ...row, score: 0 }));
    },
  };
}

export type KnowledgeBaseRepository = ReturnType<typeof createKnowledgeBaseRepository>;
