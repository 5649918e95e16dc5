import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * Fetches (or reads) one knowledge-base document, extracts its text and replaces its passages. The
 * document's row carries its state (queued, fetching, indexed, failed with the reason), so a server that
 * stops mid-way leaves a job that another instance, or the next start, runs again. Keyed by document
 * (`stately`): a refresh sent while one is queued joins it; one sent while one runs waits for it.
 */
export const ingestDocumentJob = defineJob({
  name: "kb-ingest",
  payload: z.object({ documentId: z.number().int().positive() }),
  key: (payload) => String(payload.documentId),
  options: {
    policy: "stately",
    retryLimit: 3,
    retryDelaySeconds: 10,
    retryBackoff: true,
    // A page is capped by TOOL_TIMEOUT_MS per request; a large PDF takes longer to read.
    expireInSeconds: 10 * 60,
    concurrency: 4,
  },
});
