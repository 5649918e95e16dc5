import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * The analysis of a conversation that ended (a call, a test chat): its summary, the verdict against the
 * agent's success rule and the agent's fields, written into its log row's data, then `call.analyzed`.
 * Keyed by conversation (`stately`): sent twice while one waits is once. A model that fails is retried
 * with backoff; the analysis is written again whole, so a retry or a re-run is harmless.
 */
export const analyzeConversationJob = defineJob({
  name: "runtime-analyze-conversation",
  payload: z.object({ uuid: z.string().min(1).max(64) }),
  key: (payload) => payload.uuid,
  options: {
    policy: "stately",
    retryLimit: 3,
    retryDelaySeconds: 5,
    retryBackoff: true,
    // One model call bounded by LLM_TIMEOUT_MS: well below.
    expireInSeconds: 5 * 60,
    concurrency: 2,
  },
});

/**
 * Text conversations (SMS, web chat) have no hang-up: this check queues the analysis of those that went
 * quiet (quiet-texts.ts), then queues itself for the next check. One is queued at start (`short` on one key:
 * at most one waits, so every instance may ask).
 */
export const quietTextsJob = defineJob({
  name: "runtime-quiet-texts",
  payload: z.object({}),
  key: () => "quiet-texts",
  options: {
    policy: "short",
    retryLimit: 3,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 5 * 60,
    concurrency: 1,
  },
});
