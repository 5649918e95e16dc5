import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/** Carries out a stored test run: its scenarios' calls one after another, each result stored as it ends. */
export const agentTestRunJob = defineJob({
  name: "agent-tests-run",
  payload: z.object({ runId: z.number().int(), agentId: z.number().int() }),
  key: ({ agentId }) => String(agentId),
  options: {
    policy: "singleton",
    // A run cut off is not made again: it is marked failed and the owner runs it again.
    retryLimit: 0,
    retryDelaySeconds: 0,
    retryBackoff: false,
    // Above the longest run: 50 scenarios of up to 5 minutes each.
    expireInSeconds: 5 * 60 * 60,
    concurrency: 2,
  },
});
