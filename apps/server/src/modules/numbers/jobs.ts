import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * The numbers' monthly renewals: charges each number whose renewal date came (number-renewals.ts), then
 * queues itself for the next check. One is queued at start (`short` on one key: at most one waits, so every
 * instance may ask); a rerun charges nothing twice (each month's idempotency key and the renewal date moved
 * in the charge's own transaction).
 */
export const numberRenewalsJob = defineJob({
  name: "numbers-renewals",
  payload: z.object({}),
  key: () => "renewals",
  options: {
    policy: "short",
    retryLimit: 3,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 10 * 60,
    concurrency: 1,
  },
});
