import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * The sandbox's renewals: renews the subscriptions whose period ended (Stripe renews its own and reports
 * invoice.paid), then queues itself for the next check. One is queued at start (`short` on one key: at most
 * one waits, so every instance may ask).
 */
export const sandboxRenewalsJob = defineJob({
  name: "billing-sandbox-renewals",
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
