import { z } from "zod";
import { defineJob } from "../../jobs/job.ts";

/**
 * One attempt at delivering a webhook event to an endpoint. A failed attempt (an answer other than 2xx, a
 * refusal, a timeout) is logged and the next one queued as a new job that starts after the delivery's
 * retry schedule (WEBHOOK_RETRY_SCHEDULE: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); the job itself then
 * completes. The job's own retries cover only an attempt that could not finish (the server stopped or
 * died during it): the delivery's state says whether the event still needs sending, so it is sent at
 * least once. Keyed by delivery (`singleton`): one attempt of a delivery runs at a time.
 */
export const deliverWebhookJob = defineJob({
  name: "webhooks-deliver",
  payload: z.object({
    deliveryId: z.number().int().positive(),
    /** The series (resends) and attempt within it this job is for: a stale job finds them moved on. */
    series: z.number().int().min(0),
    attempt: z.number().int().min(0),
  }),
  key: (payload) => String(payload.deliveryId),
  options: {
    policy: "singleton",
    retryLimit: 5,
    retryDelaySeconds: 5,
    retryBackoff: true,
    // An attempt is capped by WEBHOOK_TIMEOUT_MS (15 s by default): well above.
    expireInSeconds: 5 * 60,
    concurrency: 4,
  },
});
