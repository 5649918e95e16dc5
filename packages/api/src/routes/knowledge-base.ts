import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/**
 * Knowledge base (call catalogue "Knowledge base": id, title, url, urls, query, processQuery; documents
 * list). An organisation's knowledge bases hold documents (web pages by URL, pages picked from a sitemap,
 * uploaded files, pasted text); each document is fetched and indexed by a background job and split into
 * passages that agents search. The web client turns a refusal into 'Failed to ... : {status text}'.
 */

export const KB_MESSAGES = {
  notFound: "Knowledge base not found",
  documentNotFound: "Document not found",
  noOrganization: "Knowledge bases belong to an organisation: choose an organisation or one of its agents.",
  noSource: "Give a url, a list of urls or the text of the document.",
  tooManyDocuments: "A knowledge base can hold at most 2,000 documents.",
  tooManyKnowledgeBases: "An organisation can have at most 50 knowledge bases.",
  notRefreshable: "Only documents from a web address can be refreshed.",
  sitemapEmpty: "This sitemap lists no pages.",
  sitemapInvalid: "This address is not a sitemap (XML with <urlset> or <sitemapindex>).",
  fileType: "Upload a PDF, plain text, Markdown, HTML or CSV file.",
  fileTooLarge: "The file is larger than 10 MB.",
  noText: "No text could be read from this document.",
  robots: "This site's robots.txt does not allow Switchboard to read this page.",
  unknownKnowledgeBase: "One of the chosen knowledge bases does not exist in this organisation.",
} as const;

/** The web client's message for a failed knowledge-base call (call catalogue §8). */
export const kbFailure = (action: string, statusText: string) => `Failed to ${action}: ${statusText}`;

export const KB_MAX_DOCUMENTS = 2000;
export const KB_MAX_KNOWLEDGE_BASES = 50;
export const KB_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Pages a sitemap answer lists at most. */
export const KB_SITEMAP_MAX_URLS = 5000;
/** The user agent of every knowledge-base fetch; robots.txt rules for it (or for `*`) are obeyed. */
export const KB_USER_AGENT = "SwitchboardBot/1.0 (+https://switchboard.local/bot; knowledge base)";
export const KB_ROBOTS_TOKEN = "SwitchboardBot";

export const KB_DOCUMENT_STATES = ["queued", "fetching", "indexed", "failed"] as const;
export type KbDocumentState = (typeof KB_DOCUMENT_STATES)[number];
export const KB_SOURCE_KINDS = ["url", "file", "text"] as const;

const webAddress = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, message: "Enter a web address (https://...)." }));

export const kbDocumentSchema = z.object({
  id: z.number().int(),
  knowledgeBaseId: z.number().int(),
  sourceKind: z.enum(KB_SOURCE_KINDS),
  /** The page's address (url documents); null for files and text. */
  url: z.string().nullable(),
  title: z.string(),
  fileName: z.string().nullable(),
  state: z.enum(KB_DOCUMENT_STATES),
  /** Why it failed (state failed). */
  reason: z.string().nullable(),
  passages: z.number().int(),
  characters: z.number().int(),
  /** ms epoch of the last fetch that reached the source, and of the last (re)index. */
  fetchedAt: z.number().nullable(),
  indexedAt: z.number().nullable(),
  createdAt: z.number(),
});
export type KbDocument = z.infer<typeof kbDocumentSchema>;

export const kbProgressSchema = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  fetching: z.number().int(),
  indexed: z.number().int(),
  failed: z.number().int(),
});
export type KbProgress = z.infer<typeof kbProgressSchema>;

export const knowledgeBaseSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  progress: kbProgressSchema,
  passages: z.number().int(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBaseSchema>;

export const kbPassageSchema = z.object({
  chunkId: z.number().int(),
  documentId: z.number().int(),
  knowledgeBaseId: z.number().int(),
  title: z.string(),
  url: z.string().nullable(),
  text: z.string(),
  score: z.number(),
});
export type KbPassage = z.infer<typeof kbPassageSchema>;

const kbParams = z.object({ id: idSchema });
const docParams = z.object({ id: idSchema, docId: idSchema });

export const discoverSitemap = defineRoute({
  id: "discoverSitemap",
  method: "POST",
  path: "/api/v2/kb/sitemap",
  summary:
    "Read a sitemap (url; sitemap index files and gzip sitemaps are followed) and answer the pages it lists, for the user to pick which to add. Fetched through the guarded outbound module, obeying robots.txt.",
  tag: "Knowledge base",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ url: webAddress }),
  response: z.object({
    success: z.literal(true),
    urls: z.array(z.string()),
    /** More pages were listed than answered (KB_SITEMAP_MAX_URLS). */
    truncated: z.boolean(),
  }),
});

export const listKnowledgeBases = defineRoute({
  id: "listKnowledgeBases",
  method: "GET",
  path: "/api/v2/kb/knowledgebase",
  summary: "The organisation's knowledge bases with their indexing progress, newest first.",
  tag: "Knowledge base",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), knowledgeBases: z.array(knowledgeBaseSchema) }),
});

export const createKnowledgeBase = defineRoute({
  id: "createKnowledgeBase",
  method: "POST",
  path: "/api/v2/kb/knowledgebase",
  summary: "Create a knowledge base (title).",
  tag: "Knowledge base",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ title: z.string().trim().min(1, { message: "Enter a title." }).max(200) }),
  response: z.object({ success: z.literal(true), knowledgeBase: knowledgeBaseSchema }),
});

export const getKnowledgeBase = defineRoute({
  id: "getKnowledgeBase",
  method: "GET",
  path: "/api/v2/kb/knowledgebase/{id}",
  summary: "A knowledge base with its progress and its documents (each with its state).",
  tag: "Knowledge base",
  auth: "token",
  permission: "canViewOrg",
  params: kbParams,
  response: z.object({
    success: z.literal(true),
    knowledgeBase: knowledgeBaseSchema,
    documents: z.array(kbDocumentSchema),
  }),
});

export const deleteKnowledgeBase = defineRoute({
  id: "deleteKnowledgeBase",
  method: "DELETE",
  path: "/api/v2/kb/knowledgebase/{id}",
  summary: "Delete a knowledge base with its documents and passages; agents given it no longer search it.",
  tag: "Knowledge base",
  auth: "token",
  permission: "canEditOrg",
  params: kbParams,
  response: z.object({ success: z.literal(true) }),
});

export const listKbDocuments = defineRoute({
  id: "listKbDocuments",
  method: "GET",
  path: "/api/v2/kb/knowledgebase/{id}/document",
  summary: "The documents of a knowledge base, each with its state (queued, fetching, indexed, failed).",
  tag: "Knowledge base",
  auth: "token",
  permission: "canViewOrg",
  params: kbParams,
  response: z.object({
    success: z.literal(true),
    progress: kbProgressSchema,
    documents: z.array(kbDocumentSchema),
  }),
});

export const addKbDocuments = defineRoute({
  id: "addKbDocuments",
  method: "POST",
  path: "/api/v2/kb/knowledgebase/{id}/document",
  summary:
    "Add documents: a web page (url), pages picked from a sitemap (urls), or pasted text (text, with a title). Each is queued and indexed by a background job; a url already in the knowledge base is refreshed instead of added twice.",
  tag: "Knowledge base",
  auth: "token",
  permission: "canEditOrg",
  params: kbParams,
  body: z
    .object({
      url: webAddress.optional(),
      urls: z.array(webAddress).max(KB_SITEMAP_MAX_URLS).optional(),
      text: z.string().max(1_000_000).optional(),
      title: z.string().trim().max(300).optional(),
    })
    .refine(
      (value) =>
        value.url !== undefined ||
        (value.urls !== undefined && value.urls.length > 0) ||
        (value.text !== undefined && value.text.trim() !== ""),
      { message: KB_MESSAGES.noSource },
    ),
  response: z.object({ success: z.literal(true), documents: z.array(kbDocumentSchema) }),
});

export const uploadKbDocument = defineRoute({
  id: "uploadKbDocument",
  method: "POST",
  path: "/api/v2/kb/knowledgebase/{id}/document/upload",
  summary:
    "Multipart upload of one file (PDF, plain text, Markdown, HTML or CSV; at most 10 MB) as a document; indexed by a background job.",
  tag: "Knowledge base",
  auth: "token",
  permission: "canEditOrg",
  params: kbParams,
  consumes: "multipart/form-data",
  response: z.object({ success: z.literal(true), document: kbDocumentSchema }),
});

export const refreshKbDocument = defineRoute({
  id: "refreshKbDocument",
  method: "PUT",
  path: "/api/v2/kb/knowledgebase/{id}/document/{docId}",
  summary:
    "Refresh a web-page document: fetched again (conditionally, with its ETag and Last-Modified) and re-indexed only when its text changed.",
  tag: "Knowledge base",
  auth: "token",
  permission: "canEditOrg",
  params: docParams,
  response: z.object({ success: z.literal(true), document: kbDocumentSchema }),
});

export const deleteKbDocument = defineRoute({
  id: "deleteKbDocument",
  method: "DELETE",
  path: "/api/v2/kb/knowledgebase/{id}/document/{docId}",
  summary: "Delete a document and its passages.",
  tag: "Knowledge base",
  auth: "token",
  permission: "canEditOrg",
  params: docParams,
  response: z.object({ success: z.literal(true) }),
});

export const queryKnowledgeBase = defineRoute({
  id: "queryKnowledgeBase",
  method: "POST",
  path: "/api/v2/kb/knowledgebase/{id}/query",
  summary:
    'The passages that best answer a query, ranked, with their document\'s title and URL. processQuery (default true) reads the query as a question (any of its words may match, more matches rank higher); false takes it as web-search syntax (all words, "quoted phrases", -excluded, or).',
  tag: "Knowledge base",
  auth: "token",
  permission: "canViewOrg",
  params: kbParams,
  body: z.object({
    query: z.string().trim().min(1, { message: "Enter a question." }).max(1000),
    processQuery: z.boolean().default(true),
    limit: z.number().int().min(1).max(20).default(5),
  }),
  response: z.object({ success: z.literal(true), passages: z.array(kbPassageSchema) }),
});

export const knowledgeBaseRoutes = [
  discoverSitemap,
  listKnowledgeBases,
  createKnowledgeBase,
  getKnowledgeBase,
  deleteKnowledgeBase,
  listKbDocuments,
  addKbDocuments,
  uploadKbDocument,
  refreshKbDocument,
  deleteKbDocument,
  queryKnowledgeBase,
] as const;
