import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * Pays out one withdrawal whose funds are on hold: a lightning invoice is paid by the node; a PayPal or
 * Venmo payout is sent once (its batch id kept), then this job comes back after the provider's delay to ask
 * how it went, until it succeeded (settle) or failed (release). A withdrawal no longer pending is left alone,
 * so a repeated job changes nothing. One runs at a time per withdrawal.
 */
export const processWithdrawalJob = defineJob({
  name: "withdrawals-process",
  payload: z.object({ withdrawalId: z.number().int().positive() }),
  key: (payload) => String(payload.withdrawalId),
  options: {
    policy: "singleton",
    retryLimit: 8,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 180,
    concurrency: 4,
  },
});
