import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * Deletes SIP captures older than SIP_CAPTURE_RETENTION_HOURS. One is queued at start (at most one waits:
 * `short` on one key, so every instance may ask) and each run queues the next (every hour, or a quarter of
 * the retention when that is shorter).
 */
export const purgeSipCapturesJob = defineJob({
  name: "sip-captures-purge",
  payload: z.object({}),
  key: () => "purge",
  options: {
    policy: "short",
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 10 * 60,
    concurrency: 1,
  },
});
