import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * The AI agent's answer to a room (text conversation). Keyed by room under the `stately` policy: at most
 * one queued and one running per room, on all instances together, so a room's turns run one at a time and
 * in order. The job answers whatever the room holds when it runs, so a queued one covers every message
 * that arrives before it starts. A model that is down fails the attempt; it is retried with backoff
 * (about 2 s, 4 s, 8 s, 16 s) and then shows as a failed job, with the failed turn in the room.
 */
export const aiReplyJob = defineJob({
  name: "inbox-ai-reply",
  payload: z.object({ roomId: z.string().min(1).max(64) }),
  key: (payload) => payload.roomId,
  options: {
    policy: "stately",
    retryLimit: 4,
    retryDelaySeconds: 2,
    retryBackoff: true,
    // A turn is bounded by LLM_TIMEOUT_MS per model call times LLM_MAX_STEPS, plus tools: well below.
    expireInSeconds: 15 * 60,
    concurrency: 4,
  },
});
