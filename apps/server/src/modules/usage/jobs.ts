import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * The usage debits' sweep: lists the organisations with recent usage (or usage owed) and queues a debit for
 * each, then queues itself for USAGE_DEBIT_INTERVAL_SECONDS later. One is queued at start (`short` on one
 * key: at most one waits, so every instance may ask) — the sweep is the source of truth for debits.
 */
export const sweepUsageDebitsJob = defineJob({
  name: "usage-debits-sweep",
  payload: z.object({}),
  key: () => "sweep",
  options: {
    policy: "short",
    retryLimit: 3,
    retryDelaySeconds: 10,
    retryBackoff: true,
    expireInSeconds: 10 * 60,
    concurrency: 1,
  },
});

/**
 * Charges one organisation for its usage not yet debited (see usage-debits.service.ts). One runs at a time
 * per organisation (`stately`: one queued and one running), and a repeated or concurrent run posts nothing
 * twice (the cursor's idempotency keys).
 */
export const debitOrganizationJob = defineJob({
  name: "usage-debits-org",
  payload: z.object({ orgId: z.number().int().positive() }),
  key: (payload) => String(payload.orgId),
  options: {
    policy: "stately",
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 5 * 60,
    concurrency: 2,
  },
});
