import {
  KB_MAX_DOCUMENTS,
  KB_MAX_KNOWLEDGE_BASES,
  KB_MESSAGES,
  type KbDocument,
  type KbPassage,
  type KnowledgeBase,
} from "@switchboard/api";
import { cleanText, truncateText } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import type { JobAttempt } from "../../jobs/job.ts";
import { jobFailureOf } from "../../jobs/job-failure.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import {
  cosine,
  type EmbeddingsProvider,
  reciprocalRankFusion,
} from "../../providers/embeddings/embeddings-provider.ts";
import type { StorageProvider } from "../../providers/storage/storage-provider.ts";
import {
  chunkText,
  contentHashOf,
  type ExtractedText,
  extractText,
  formatOf,
  normaliseText,
} from "./extract.ts";
import { FetchFailure, type KbFetcher } from "./fetcher.ts";
import { ingestDocumentJob } from "./jobs.ts";
import {
  createKnowledgeBaseRepository,
  type DocumentRow,
  type KbStats,
  type KnowledgeBaseRow,
  type PassageRow,
  tsqueryLexeme,
} from "./knowledge-base.repository.ts";
import { questionWords } from "./question-words.ts";

type Deps = {
  db: Database;
  jobs: JobRunner;
  fetcher: KbFetcher;
  storage: StorageProvider;
  embeddings: EmbeddingsProvider | null;
  log: FastifyBaseLogger;
  now?: () => number;
};

/** The organisation a call acts on: the target, or the organisation of a target agent account. */
function organizationIdOf(target: AccountRow): number {
  if (target.accountType === "organization") return target.id;
  if (target.accountType === "agent" && target.organizationId) return target.organizationId;
  throw badRequest(KB_MESSAGES.noOrganization);
}

function toKnowledgeBase(row: KnowledgeBaseRow, stats: KbStats | undefined): KnowledgeBase {
  const s = stats ?? { total: 0, queued: 0, fetching: 0, indexed: 0, failed: 0, passages: 0 };
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    progress: {
      total: s.total,
      queued: s.queued,
      fetching: s.fetching,
      indexed: s.indexed,
      failed: s.failed,
    },
    passages: s.passages,
  };
}

function toDocument(row: DocumentRow): KbDocument {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    sourceKind: row.sourceKind,
    url: row.url,
    title: row.title || row.fileName || row.url || "Untitled",
    fileName: row.fileName,
    state: row.state,
    reason: row.failureReason,
    passages: row.chunkCount,
    characters: row.charCount,
    fetchedAt: row.fetchedAt?.getTime() ?? null,
    indexedAt: row.indexedAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
  };
}

/** Candidates of a query that are scored: the shortest passages with its words (at least this many). */
const CANDIDATES = 20;
/** The rarest words of a query whose passages are all scored: as many as hold at most this many passages. */
const RARE_PASSAGES = 1000;
/** How alike (pg_trgm similarity) a lexeme must be to stand for a word of a query that no passage holds. */
const SIMILARITY = 0.5;
/**
 * Passages a query is expected to match above which its candidates are found by walking the organisation's
 * passages shortest first (few steps to `take` matches); at or below, its matches are sorted.
 */
const WALK_ABOVE = 5000;
/** A BM25 score in [0, 1): passages with every word score 1 more (the API's scores are kept so). */
const normalised = (score: number) => score / (1 + score);

const toPassage = (row: PassageRow, score: number): KbPassage => ({
  chunkId: Number(row.chunk_id),
  documentId: row.document_id,
  knowledgeBaseId: row.knowledge_base_id,
  title: row.title || row.url || "Untitled",
  url: row.url,
  text: row.content,
  score: Math.round(score * 10000) / 10000,
});

/** A document that cannot be indexed: its reason is shown and no retry follows. */
class IngestFailure extends Error {
  override name = "IngestFailure";
}

/** Why a document failed when its last attempt ended in an error of ours (the log says which). */
export const INDEXING_FAILED = "The document could not be indexed. Refresh or upload it again later.";

export function createKnowledgeBaseService(deps: Deps) {
  const repo = createKnowledgeBaseRepository(deps.db);
  const now = deps.now ?? Date.now;

  async function knowledgeBaseOf(access: Access, id: number): Promise<KnowledgeBaseRow> {
    const row = await repo.find(organizationIdOf(access.target), id);
    if (!row) throw notFound(KB_MESSAGES.notFound);
    return row;
  }

  async function withStats(orgId: number, rows: KnowledgeBaseRow[]): Promise<KnowledgeBase[]> {
    const stats = await repo.stats(
      orgId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toKnowledgeBase(row, stats.get(row.id)));
  }

  /** Writes documents and their jobs in one transaction, then wakes this instance's workers. */
  async function queue(
    kb: KnowledgeBaseRow,
    fresh: Omit<Parameters<typeof repo.insertDocuments>[0][number], "orgId" | "knowledgeBaseId">[],
    again: DocumentRow[],
  ): Promise<DocumentRow[]> {
    const count = await repo.documentCount(kb.id);
    if (count + fresh.length > KB_MAX_DOCUMENTS) throw badRequest(KB_MESSAGES.tooManyDocuments);
    const rows = await deps.db.transaction(async (tx) => {
      const txRepo = createKnowledgeBaseRepository(tx);
      const inserted = await txRepo.insertDocuments(
        fresh.map((row) => ({ ...row, orgId: kb.orgId, knowledgeBaseId: kb.id, state: "queued" as const })),
      );
      const requeued: DocumentRow[] = [];
      for (const document of again) {
        const updated = await txRepo.updateDocument(document.id, { state: "queued", failureReason: null });
        if (updated) requeued.push(updated);
      }
      for (const document of [...inserted, ...requeued])
        await deps.jobs.send(ingestDocumentJob, { documentId: document.id }, { transaction: tx });
      await txRepo.touch(kb.id);
      return [...inserted, ...requeued];
    });
    deps.jobs.wake(ingestDocumentJob);
    return rows;
  }

  async function read(document: DocumentRow, signal: AbortSignal): Promise<ExtractedText | "unchanged"> {
    if (document.sourceKind === "text") {
      return { title: document.title || "Text", text: cleanText(normaliseText(document.sourceText ?? "")) };
    }
    if (document.sourceKind === "file") {
      const stored = document.fileKey ? await deps.storage.get(document.fileKey) : null;
      if (!stored) throw new IngestFailure("The uploaded file is no longer stored: upload it again.");
      const format = formatOf(document.contentType, document.fileName);
      if (!format) throw new IngestFailure(KB_MESSAGES.fileType);
      const fallback = (document.fileName ?? "Document").replace(/\.[A-Za-z0-9]+$/, "");
      try {
        return await extractText(format, stored.data, fallback);
      } catch {
        throw new IngestFailure("The file could not be read (is it a valid, unencrypted document?).");
      }
    }
    const indexedBefore = document.contentHash !== null && document.chunkCount > 0;
    const page = await deps.fetcher.fetchPage(document.url ?? "", {
      ...(indexedBefore ? { etag: document.etag, lastModified: document.lastModified } : {}),
      signal,
    });
    if (page.notModified) {
      await repo.updateDocument(document.id, { fetchedAt: new Date(now()) });
      return "unchanged";
    }
    await repo.updateDocument(document.id, {
      etag: page.etag,
      lastModified: page.lastModified,
      fetchedAt: new Date(now()),
    });
    const path = new URL(page.url).pathname;
    const format = formatOf(page.contentType, path) ?? (page.contentType ? null : "html");
    if (!format)
      throw new IngestFailure(`This page is ${page.contentType}: only web pages, PDFs and text are read.`);
    const fallback = decodeURIComponent(path.split("/").filter(Boolean).at(-1) ?? new URL(page.url).hostname);
    try {
      return await extractText(format, page.data, fallback);
    } catch {
      throw new IngestFailure("This page could not be read.");
    }
  }

  /**
   * The job: fetch or read, extract, and (when the text changed) replace the passages. Whatever fails, the
   * document ends: indexed, or failed with a reason (after the last attempt, for a failure of ours).
   */
  async function ingest(payload: { documentId: number }, attempt: JobAttempt): Promise<void> {
    try {
      await ingestAttempt(payload, attempt);
    } catch (error) {
      if (attempt.signal.aborted) throw error;
      if (!attempt.finalAttempt) {
        await repo.updateDocument(payload.documentId, { state: "queued" }).catch(() => {});
        throw error;
      }
      deps.log.warn(
        { err: jobFailureOf(error), documentId: payload.documentId },
        "knowledge-base document could not be indexed",
      );
      await repo.updateDocument(payload.documentId, { state: "failed", failureReason: INDEXING_FAILED });
    }
  }

  async function ingestAttempt(payload: { documentId: number }, attempt: JobAttempt): Promise<void> {
    const document = await repo.documentById(payload.documentId);
    if (!document) return;
    await repo.updateDocument(document.id, { state: "fetching", failureReason: null });
    let extracted: ExtractedText | "unchanged";
    try {
      extracted = await read(document, attempt.signal);
    } catch (error) {
      if (attempt.signal.aborted) throw error;
      const transient = error instanceof FetchFailure ? error.transient : !(error instanceof IngestFailure);
      const reason =
        error instanceof FetchFailure || error instanceof IngestFailure
          ? error.message
          : "The document could not be read.";
      if (transient && !attempt.finalAttempt) {
        await repo.updateDocument(document.id, { state: "queued", failureReason: reason });
        throw error;
      }
      deps.log.info({ documentId: document.id, reason }, "knowledge-base document failed");
      await repo.updateDocument(document.id, { state: "failed", failureReason: reason });
      return;
    }
    if (extracted === "unchanged") {
      await repo.updateDocument(document.id, { state: "indexed", failureReason: null });
      return;
    }
    const text = extracted.text;
    if (!text.trim()) {
      await repo.updateDocument(document.id, { state: "failed", failureReason: KB_MESSAGES.noText });
      return;
    }
    const title = truncateText(
      cleanText(document.sourceKind === "text" && document.title ? document.title : extracted.title),
      300,
    );
    const hash = contentHashOf(`${title}\n${text}`);
    if (hash === document.contentHash && document.chunkCount > 0) {
      await repo.updateDocument(document.id, { state: "indexed", failureReason: null });
      return;
    }
    const chunks = chunkText(title, text);
    let vectors: number[][] | null = null;
    if (deps.embeddings) {
      try {
        vectors = await deps.embeddings.embed(
          chunks.map((chunk) => `${chunk.heading}\n${chunk.content}`),
          attempt.signal,
        );
      } catch (error) {
        deps.log.warn(
          { err: error, documentId: document.id },
          "knowledge-base embeddings failed; full-text only",
        );
      }
    }
    await deps.db.transaction(async (tx) => {
      const txRepo = createKnowledgeBaseRepository(tx);
      const current = await txRepo.lockDocument(document.id);
      if (!current) return;
      await txRepo.replaceChunks(current, chunks, vectors);
      await txRepo.updateDocument(document.id, {
        title,
        state: "indexed",
        failureReason: null,
        contentHash: hash,
        chunkCount: chunks.length,
        charCount: text.length,
        indexedAt: new Date(now()),
      });
    });
  }

  /** Passages of some knowledge bases of an organisation that best answer a query. */
  async function search(
    orgId: number,
    knowledgeBaseIds: number[],
    query: string,
    options: { limit?: number; processQuery?: boolean } = {},
  ): Promise<KbPassage[]> {
    const limit = options.limit ?? 5;
    // Every statement of the search is scoped by org_id (a passage's org_id is its knowledge base's), so
    // ids of another organisation's knowledge bases find nothing without a look-up of their own.
    const ids = [...new Set(knowledgeBaseIds)];
    if (ids.length === 0 || !query.trim()) return [];
    const plain = !/"|(^|\s)-\S|(^|\s)or(\s|$)/i.test(query);
    if (options.processQuery !== false && plain) {
      const rows = await searchQuestion(orgId, ids, query, limit);
      return rank(orgId, ids, query, limit, rows);
    }
    // How common each word of the query is in the organisation: a word held by few passages weighs more
    // (BM25's idf), and its passages are few enough to score them all.
    const stats = await repo.queryTerms(orgId, query);
    const known: { lexeme: string; chunks: number; weight: number }[] = stats.terms
      .filter((term) => term.chunks > 0)
      .map((term) => ({ ...term, weight: 1 }));
    // A word no passage holds ("charger" where the site says "charging", a typo) stands for the lexemes
    // of the organisation that look most like it, weighed by how alike they are.
    if (options.processQuery !== false) {
      const unknown = stats.terms.filter((term) => term.chunks === 0 && term.lexeme.length >= 4);
      const seen = new Set(known.map((term) => term.lexeme));
      for (const similar of await repo.similarLexemes(
        orgId,
        unknown.map((term) => term.lexeme),
        SIMILARITY,
      ))
        if (!seen.has(similar.lexeme)) {
          seen.add(similar.lexeme);
          known.push({ lexeme: similar.lexeme, chunks: similar.chunks, weight: similar.similarity });
        }
    }
    const scoring = {
      meanLength: stats.meanLength,
      weights: known.map((term) => ({
        lexeme: term.lexeme,
        idf: term.weight * Math.log(1 + (stats.count - term.chunks + 0.5) / (term.chunks + 0.5)),
      })),
    };
    const take = Math.max(CANDIDATES, limit * 4);
    // Passages with every word (websearch syntax: quotes, or, -word) first, as before. A query without that
    // syntax needs all its words: none when one is in no passage, and about count × Π(share of each) (as
    // if independent) otherwise, which says whether to walk the passages shortest first or sort the matches.
    const expected = stats.terms.reduce(
      (product, term) => (product * term.chunks) / Math.max(1, stats.count),
      stats.count,
    );
    const exact =
      plain && (stats.terms.length === 0 || expected === 0)
        ? []
        : await repo.search(
            orgId,
            ids,
            {
              all: null,
              shortest: sql`websearch_to_tsquery('english', ${query})`,
              // Every match of a plain query holds the same words, so the shortest `limit` are the best.
              take: plain ? limit : take,
              walk: plain && expected > WALK_ABOVE,
            },
            scoring,
            limit,
          );
    const rows = exact.map((row) => ({ row, score: 1 + normalised(Number(row.score)) }));
    if (options.processQuery !== false && rows.length < limit && known.length > 0) {
      // Then passages with some of the words: all those holding the rarest words (up to RARE_PASSAGES
      // passages in all), and the shortest holding any word.
      const rare: string[] = [];
      let passages = 0;
      for (const term of [...known].sort((a, b) => a.chunks - b.chunks)) {
        if (passages + term.chunks > RARE_PASSAGES) break;
        rare.push(term.lexeme);
        passages += term.chunks;
      }
      const orOf = (lexemes: string[]) => sql`${lexemes.map(tsqueryLexeme).join(" | ")}::tsquery`;
      const loose = await repo.search(
        orgId,
        ids,
        {
          all: rare.length > 0 ? orOf(rare) : null,
          shortest: orOf(known.map((term) => term.lexeme)),
          take,
          walk: known.reduce((sum, term) => sum + term.chunks, 0) > WALK_ABOVE,
        },
        scoring,
        limit + rows.length,
      );
      const seen = new Set(rows.map((entry) => Number(entry.row.chunk_id)));
      for (const row of loose)
        if (!seen.has(Number(row.chunk_id))) rows.push({ row, score: normalised(Number(row.score)) });
    }
    return rank(orgId, ids, query, limit, rows.slice(0, limit));
  }

  /**
   * A question in a caller's words: its groups of words (question-words.ts) weighed by how rare each word
   * is in the organisation; candidates are the passages of its rarest words, the shortest with a word of
   * every required group, and the shortest with any of its words.
   */
  async function searchQuestion(
    orgId: number,
    ids: number[],
    query: string,
    limit: number,
  ): Promise<{ row: PassageRow; score: number }[]> {
    const groups = questionWords(query);
    const asked = groups.flatMap((group, index) =>
      group.words.map((word) => ({
        group: index,
        word: word.word,
        weight: word.weight,
        required: group.required,
      })),
    );
    if (asked.length === 0) return [];
    const stats = await repo.wordLexemes(
      orgId,
      asked.map((entry) => entry.word),
    );
    // One term per group and lexeme, with the highest weight any of its words gave it.
    const terms = new Map<
      string,
      { group: number; lexeme: string; chunks: number; weight: number; required: boolean }
    >();
    const add = (group: number, lexeme: string, chunks: number, weight: number, required: boolean) => {
      const key = `${group} ${lexeme}`;
      const known = terms.get(key);
      if (!known || known.weight < weight) terms.set(key, { group, lexeme, chunks, weight, required });
    };
    for (const row of stats.words) {
      const entry = asked[row.index];
      if (entry) add(entry.group, row.lexeme, row.chunks, entry.weight, entry.required);
    }
    // A word of the question no passage holds ("charger" where the site says "charging", a typo) stands for
    // the lexemes of the organisation that look most like it, weighed by how alike they are.
    const unknown = stats.words.filter(
      (row) => row.chunks === 0 && row.lexeme.length >= 4 && asked[row.index]?.weight === 1,
    );
    if (unknown.length > 0) {
      const similar = await repo.similarLexemes(
        orgId,
        unknown.map((row) => row.lexeme),
        SIMILARITY,
      );
      for (const match of similar)
        for (const row of unknown) {
          const entry = asked[row.index];
          if (entry && row.lexeme === match.word)
            add(entry.group, match.lexeme, match.chunks, match.similarity, entry.required);
        }
    }
    const found = [...terms.values()].filter((term) => term.chunks > 0);
    if (found.length === 0) return [];
    const idf = (chunks: number) => Math.log(1 + (stats.count - chunks + 0.5) / (chunks + 0.5));
    const take = Math.max(CANDIDATES, limit * 4);
    const orOf = (lexemes: string[]) => sql`${[...new Set(lexemes)].map(tsqueryLexeme).join(" | ")}::tsquery`;
    // The rarest words' passages, all of them (up to RARE_PASSAGES in all).
    const rare: string[] = [];
    let passages = 0;
    for (const term of [...found].sort((a, b) => a.chunks - b.chunks)) {
      if (passages + term.chunks > RARE_PASSAGES) break;
      rare.push(term.lexeme);
      passages += term.chunks;
    }
    // The shortest passages with a word of every required group (about count × Π share of each group).
    const byGroup = new Map<number, typeof found>();
    for (const term of found) byGroup.set(term.group, [...(byGroup.get(term.group) ?? []), term]);
    const requiredGroups = [...byGroup.values()].filter((terms) => terms[0]?.required);
    const shortest: { query: ReturnType<typeof sql>; take: number; walk: boolean }[] = [];
    if (requiredGroups.length > 0) {
      const expected = requiredGroups.reduce(
        (product, terms) =>
          product * Math.min(1, terms.reduce((sum, term) => sum + term.chunks, 0) / Math.max(1, stats.count)),
        stats.count,
      );
      const every = requiredGroups
        .map((terms) => `(${[...new Set(terms.map((term) => tsqueryLexeme(term.lexeme)))].join(" | ")})`)
        .join(" & ");
      shortest.push({ query: sql`${every}::tsquery`, take, walk: expected > WALK_ABOVE });
    }
    shortest.push({
      query: orOf(found.map((term) => term.lexeme)),
      take,
      walk: found.reduce((sum, term) => sum + term.chunks, 0) > WALK_ABOVE,
    });
    const rows = await repo.searchGroups(
      orgId,
      ids,
      { all: rare.length > 0 ? orOf(rare) : null, shortest },
      found.map((term) => ({
        group: term.group,
        lexeme: term.lexeme,
        idf: term.weight * idf(term.chunks),
        required: term.required,
      })),
      stats.meanLength,
      limit,
    );
    return rows.map((row) => ({ row, score: Number(row.score) }));
  }

  /** The passages found, fused with the vector ranking when embeddings are configured. */
  async function rank(
    orgId: number,
    ids: number[],
    query: string,
    limit: number,
    rows: { row: PassageRow; score: number }[],
  ): Promise<KbPassage[]> {
    if (!deps.embeddings) return rows.map(({ row, score }) => toPassage(row, score));
    // Hybrid: the vector ranking of the passages beside the full-text one, fused by rank.
    try {
      const [vector] = await deps.embeddings.embed([query]);
      const stored = await repo.embeddings(orgId, ids, 20_000);
      const byVector = stored
        .map((entry) => ({ id: Number(entry.id), score: cosine(vector ?? [], entry.embedding) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit * 2)
        .map((entry) => entry.id);
      const fused = reciprocalRankFusion([rows.map(({ row }) => Number(row.chunk_id)), byVector]).slice(
        0,
        limit,
      );
      const known = new Map(rows.map(({ row, score }) => [Number(row.chunk_id), { row, score }]));
      const missing = fused.filter((id) => !known.has(id));
      for (const row of await repo.passagesByIds(orgId, missing))
        known.set(Number(row.chunk_id), { row, score: 0 });
      return fused.flatMap((id, rank) => {
        const entry = known.get(id);
        return entry ? [toPassage(entry.row, 1 / (60 + rank + 1))] : [];
      });
    } catch (error) {
      deps.log.warn({ err: error }, "knowledge-base query embedding failed; full-text only");
      return rows.map(({ row, score }) => toPassage(row, score));
    }
  }

  /**
   * Pages are refused at save as each fetch would refuse them: one check per site (a sitemap's pages
   * share a few), answered with the first refusal.
   */
  async function checkSites(urls: string[]): Promise<void> {
    const sites = new Map<string, string>();
    for (const url of urls) {
      const origin = URL.canParse(url) ? new URL(url).origin : url;
      if (!sites.has(origin)) sites.set(origin, url);
    }
    for (const url of sites.values()) {
      try {
        await deps.fetcher.checkAddress(url);
      } catch (error) {
        if (error instanceof FetchFailure) throw badRequest(`url: ${error.message}`);
        throw error;
      }
    }
  }

  return {
    ingest,
    search,

    /** The ids among `ids` that are knowledge bases of the organisation. */
    knowledgeBasesOf: (orgId: number, ids: number[]) => repo.existing(orgId, ids),

    async list(access: Access) {
      const orgId = organizationIdOf(access.target);
      return { success: true as const, knowledgeBases: await withStats(orgId, await repo.list(orgId)) };
    },

    async create(access: Access, title: string) {
      const orgId = organizationIdOf(access.target);
      if ((await repo.count(orgId)) >= KB_MAX_KNOWLEDGE_BASES)
        throw badRequest(KB_MESSAGES.tooManyKnowledgeBases);
      const row = await repo.insert(orgId, title);
      return { success: true as const, knowledgeBase: toKnowledgeBase(row, undefined) };
    },

    async get(access: Access, id: number) {
      const kb = await knowledgeBaseOf(access, id);
      const [knowledgeBase] = await withStats(kb.orgId, [kb]);
      const documents = await repo.documents(kb.orgId, kb.id);
      return {
        success: true as const,
        knowledgeBase: knowledgeBase as KnowledgeBase,
        documents: documents.map(toDocument),
      };
    },

    async remove(access: Access, id: number) {
      const kb = await knowledgeBaseOf(access, id);
      const documents = await repo.remove(kb.orgId, kb.id);
      for (const document of documents)
        if (document.fileKey) await deps.storage.delete(document.fileKey).catch(() => {});
      return { success: true as const };
    },

    async documents(access: Access, id: number) {
      const kb = await knowledgeBaseOf(access, id);
      const [knowledgeBase] = await withStats(kb.orgId, [kb]);
      const documents = await repo.documents(kb.orgId, kb.id);
      return {
        success: true as const,
        progress: (knowledgeBase as KnowledgeBase).progress,
        documents: documents.map(toDocument),
      };
    },

    async add(
      access: Access,
      id: number,
      body: {
        url?: string | undefined;
        urls?: string[] | undefined;
        text?: string | undefined;
        title?: string | undefined;
      },
    ) {
      const kb = await knowledgeBaseOf(access, id);
      const urls = [...new Set([...(body.url ? [body.url] : []), ...(body.urls ?? [])])];
      await checkSites(urls);
      const existing = await repo.documentsByUrl(kb.id, urls);
      const known = new Set(existing.map((document) => document.url));
      const fresh: Parameters<typeof queue>[1] = urls
        .filter((url) => !known.has(url))
        .map((url) => ({ sourceKind: "url" as const, url, title: "" }));
      if (body.text?.trim())
        fresh.push({
          sourceKind: "text",
          title: body.title?.trim() || body.text.trim().split("\n")[0]?.slice(0, 80) || "Text",
          sourceText: body.text,
          charCount: body.text.length,
        });
      const rows = await queue(kb, fresh, existing);
      return { success: true as const, documents: rows.map(toDocument) };
    },

    async upload(access: Access, id: number, file: { data: Buffer; fileName: string; contentType: string }) {
      const kb = await knowledgeBaseOf(access, id);
      const format = formatOf(file.contentType, file.fileName);
      if (!format) throw badRequest(KB_MESSAGES.fileType);
      if (format === "pdf" && file.data.subarray(0, 5).toString("latin1") !== "%PDF-")
        throw badRequest(KB_MESSAGES.fileType);
      const extension = { pdf: "pdf", html: "html", markdown: "md", csv: "csv", text: "txt" }[format];
      const stored = await deps.storage.put("kb-documents", extension, file.data, file.contentType);
      try {
        const [row] = await queue(
          kb,
          [
            {
              sourceKind: "file",
              title: file.fileName.replace(/\.[A-Za-z0-9]+$/, "").slice(0, 300),
              fileName: file.fileName.slice(0, 300),
              contentType: file.contentType,
              fileKey: stored.key,
            },
          ],
          [],
        );
        return { success: true as const, document: toDocument(row as DocumentRow) };
      } catch (error) {
        await deps.storage.delete(stored.key).catch(() => {});
        throw error;
      }
    },

    async refresh(access: Access, id: number, docId: number) {
      const kb = await knowledgeBaseOf(access, id);
      const document = await repo.findDocument(kb.orgId, kb.id, docId);
      if (!document) throw notFound(KB_MESSAGES.documentNotFound);
      if (document.sourceKind !== "url") throw badRequest(KB_MESSAGES.notRefreshable);
      const [row] = await queue(kb, [], [document]);
      return { success: true as const, document: toDocument(row ?? document) };
    },

    async removeDocument(access: Access, id: number, docId: number) {
      const kb = await knowledgeBaseOf(access, id);
      const document = await repo.findDocument(kb.orgId, kb.id, docId);
      if (!document) throw notFound(KB_MESSAGES.documentNotFound);
      await repo.removeDocument(kb.orgId, document.id);
      if (document.fileKey) await deps.storage.delete(document.fileKey).catch(() => {});
      await repo.touch(kb.id);
      return { success: true as const };
    },

    async query(access: Access, id: number, body: { query: string; processQuery: boolean; limit: number }) {
      const kb = await knowledgeBaseOf(access, id);
      const passages = await search(kb.orgId, [kb.id], body.query, {
        limit: body.limit,
        processQuery: body.processQuery,
      });
      return { success: true as const, passages };
    },

    async sitemap(url: string) {
      try {
        const { urls, truncated } = await deps.fetcher.readSitemap(url);
        if (urls.length === 0) throw badRequest(KB_MESSAGES.sitemapEmpty);
        return { success: true as const, urls, truncated };
      } catch (error) {
        if (error instanceof FetchFailure) throw badRequest(error.message);
        throw error;
      }
    },
  };
}

export type KnowledgeBaseService = ReturnType<typeof createKnowledgeBaseService>;
