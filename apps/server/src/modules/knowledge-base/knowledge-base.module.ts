import type { AppContext } from "../../app-context.ts";
import { openAiCompatibleEmbeddings } from "../../providers/embeddings/embeddings-provider.ts";
import { createKbFetcher } from "./fetcher.ts";
import { ingestDocumentJob } from "./jobs.ts";
import { knowledgeBaseRoutes } from "./knowledge-base.routes.ts";
import { createKnowledgeBaseService } from "./knowledge-base.service.ts";

/**
 * Knowledge bases: documents fetched through the guarded outbound module (robots.txt obeyed), indexed by the
 * durable `kb-ingest` job into passages searched with PostgreSQL full-text search (and embeddings, fused by
 * rank, when EMBEDDINGS_BASE_URL is set); `search` is what the agents' knowledge tool calls.
 */
export function createKnowledgeBaseModule(context: AppContext) {
  const fetcher = createKbFetcher({ outbound: context.outbound, timeoutMs: context.config.toolTimeoutMs });
  const embeddings = context.config.embeddings ? openAiCompatibleEmbeddings(context.config.embeddings) : null;
  const knowledgeBase = createKnowledgeBaseService({
    db: context.database.db,
    jobs: context.jobs,
    fetcher,
    storage: context.storage,
    embeddings,
    log: context.log,
  });
  context.jobs.register(ingestDocumentJob, (payload, attempt) => knowledgeBase.ingest(payload, attempt));
  return { knowledgeBase, routes: knowledgeBaseRoutes(knowledgeBase) };
}

export type KnowledgeBaseModule = ReturnType<typeof createKnowledgeBaseModule>;
