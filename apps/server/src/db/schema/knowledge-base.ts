import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** An organisation's knowledge base: a titled set of documents its agents may search. */
export const knowledgeBases = pgTable(
  "knowledge_bases",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("knowledge_bases_org_idx").on(t.orgId, t.id)],
);

/**
 * A document of a knowledge base: a web page (`url`), an uploaded file (kept in the file storage under
 * `file_key` until indexed) or pasted text (`source_text`). `state` moves queued -> fetching -> indexed or
 * failed (with `failure_reason`) in the `kb-ingest` job; `etag`, `last_modified` and `content_hash` let a
 * refresh skip what did not change.
 */
export const kbDocuments = pgTable(
  "kb_documents",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    knowledgeBaseId: integer("knowledge_base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    sourceKind: text("source_kind").$type<"url" | "file" | "text">().notNull(),
    url: text("url"),
    title: text("title").notNull().default(""),
    fileName: text("file_name"),
    contentType: text("content_type"),
    fileKey: text("file_key"),
    sourceText: text("source_text"),
    state: text("state").$type<"queued" | "fetching" | "indexed" | "failed">().notNull().default("queued"),
    failureReason: text("failure_reason"),
    etag: text("etag"),
    lastModified: text("last_modified"),
    contentHash: text("content_hash"),
    chunkCount: integer("chunk_count").notNull().default(0),
    charCount: integer("char_count").notNull().default(0),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }),
    indexedAt: timestamp("indexed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("kb_documents_kb_idx").on(t.orgId, t.knowledgeBaseId, t.id),
    index("kb_documents_url_idx").on(t.knowledgeBaseId, t.url),
  ],
);

/**
 * The passages of a document, searched with PostgreSQL full-text search: `tsv` is generated from the
 * heading (weight A) and the text (weight B) with the english configuration. Indexes of the search
 * (migration 0023, hand-written there): `kb_chunks_org_tsv_idx`, GIN over (org_id, tsv) with btree_gin, so a
 * word's passages are looked up inside one organisation; `kb_chunks_org_length_idx` (org_id, length(tsv))
 * walks an organisation's passages shortest first; triggers keep `kb_lexemes` in step.
 */
export const kbChunks = pgTable(
  "kb_chunks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orgId: integer("org_id").notNull(),
    knowledgeBaseId: integer("knowledge_base_id").notNull(),
    documentId: integer("document_id")
      .notNull()
      .references(() => kbDocuments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    heading: text("heading").notNull().default(""),
    content: text("content").notNull(),
    /** The embedding of the passage when an embeddings provider is configured (no pgvector needed). */
    embedding: real("embedding").array(),
    tsv: tsvector("tsv")
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english'::regconfig, heading), 'A') || setweight(to_tsvector('english'::regconfig, content), 'B')`,
      ),
  },
  (t) => [
    index("kb_chunks_document_idx").on(t.documentId, t.position),
    index("kb_chunks_kb_idx").on(t.orgId, t.knowledgeBaseId),
  ],
);

/**
 * Per organisation, how many of its passages hold each lexeme (`chunks`, the document frequency that weighs
 * a query's words: a rare word counts more than a common one). The row with the empty lexeme holds the
 * organisation's passage count in `chunks` and the sum of their lexeme counts in `lexemes` (for the mean
 * passage length). Kept by statement triggers on kb_chunks (migration 0023), never written by the app.
 */
export const kbLexemes = pgTable(
  "kb_lexemes",
  {
    orgId: integer("org_id").notNull(),
    lexeme: text("lexeme").notNull(),
    chunks: integer("chunks").notNull().default(0),
    lexemes: bigint("lexemes", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.lexeme] })],
);
