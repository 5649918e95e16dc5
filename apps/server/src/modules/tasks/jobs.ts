import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * The scheduler's pass over one organisation: claims its due tasks within its limits (concurrency, daily
 * limit, calling hours) and queues a run job for each, in one transaction under the organisation's
 * advisory lock, then queues itself for when the next waiting task becomes due. Keyed by organisation and
 * wake time (`short`: one queued per key, so a burst of triggers makes one pass).
 */
export const dispatchTasksJob = defineJob({
  name: "tasks-dispatch",
  payload: z.object({
    orgId: z.number().int().positive(),
    /** The time (ms) this pass was queued for; 0 for "now". */
    at: z.number().int().min(0),
  }),
  key: (payload) => `${payload.orgId}:${payload.at}`,
  options: {
    policy: "short",
    retryLimit: 5,
    retryDelaySeconds: 2,
    retryBackoff: true,
    expireInSeconds: 120,
    concurrency: 2,
  },
});

/**
 * One attempt of one task (claimed by a dispatch pass): the channel calls or texts, then the outcome is
 * kept with the attempt, the task moves on (completed, failed, or scheduled again) and the next dispatch
 * is queued, in one transaction. The payload names the attempt, so a stale or repeated job finds the task
 * moved on and does nothing; a text attempt keeps its message id, and marks the start of its send, before
 * the carrier is asked, so a retried job never texts twice (see `textChannel`). A call lasts up to 30
 * minutes: the expiry is above it. A run of a server that died is retried within seconds (jobs/heartbeat.ts).
 */
export const runTaskJob = defineJob({
  name: "tasks-run",
  payload: z.object({ taskId: z.string().min(1), attempt: z.number().int().positive() }),
  key: (payload) => payload.taskId,
  options: {
    policy: "singleton",
    retryLimit: 4,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 45 * 60,
    concurrency: 8,
  },
});
