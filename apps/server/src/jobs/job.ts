import type { z } from "zod";

/**
 * How jobs of one name share out (pg-boss queue policies, enforced by unique indexes in the database, so
 * across every server instance):
 * - `standard`: any number queued and running;
 * - `short`: at most one queued per key (sending more while one waits is a no-op);
 * - `singleton`: at most one running per key;
 * - `stately`: at most one queued and one running per key.
 */
export type JobPolicy = "standard" | "short" | "singleton" | "stately";

export type JobOptions = {
  policy: JobPolicy;
  /** Attempts after the first. */
  retryLimit: number;
  /** Wait before a retry; doubled (with jitter) at each further attempt when `retryBackoff` is set. */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** A job running longer is failed (and retried) by the maintenance of any instance: above the worst case. */
  expireInSeconds: number;
  /** Jobs of this name one server instance runs at the same time. */
  concurrency: number;
};

/** One kind of background job: its queue name, its payload's schema, its key (for the policy) and options. */
export type JobDefinition<Schema extends z.ZodType = z.ZodType> = {
  /** The pg-boss queue name: `<feature>-<job>`. */
  name: string;
  payload: Schema;
  /** The key the policy counts per (e.g. the room of an AI reply); none means one key for the queue. */
  key?: (payload: z.output<Schema>) => string;
  options: JobOptions;
};

export type JobPayload<Definition extends JobDefinition> = z.output<Definition["payload"]>;

/** What a handler learns about the attempt it runs. */
export type JobAttempt = {
  id: string;
  /** 0 for the first attempt. */
  retryCount: number;
  /** No retry follows when this attempt fails: the job then shows as failed. */
  finalAttempt: boolean;
  /** Aborted when the server stops before the attempt ended: stop, leave nothing behind, and throw. */
  signal: AbortSignal;
};

export type JobHandler<Definition extends JobDefinition> = (
  payload: JobPayload<Definition>,
  attempt: JobAttempt,
) => Promise<void>;

export const defineJob = <Schema extends z.ZodType>(definition: JobDefinition<Schema>) => definition;
