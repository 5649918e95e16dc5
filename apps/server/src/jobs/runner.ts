import { cleanTextDeep } from "@switchboard/core";
import type { FastifyBaseLogger } from "fastify";
import PgBoss from "pg-boss";
import type { Database, DatabaseHandle } from "../db/client.ts";
import { createWorkerHeartbeat } from "./heartbeat.ts";
import type { JobDefinition, JobHandler, JobPayload } from "./job.ts";
import { jobFailureOf, unawaitedStatementsOf } from "./job-failure.ts";
import { JOB_SCHEMA } from "./schema.ts";
import { executorOf, type SqlExecutor, transactionExecutor } from "./sql.ts";

/** How often an idle worker asks the database for work; jobs sent by this instance wake its workers at once. */
const POLLING_INTERVAL_SECONDS = 2;
/** Jobs sent while a job of the same key runs wait behind the jobs of other keys (see `send`). */
const BEHIND_RUNNING_KEY = -1;
/** A runner silent this long is taken as dead and its running jobs are retried (JOB_WORKER_TIMEOUT_SECONDS). */
const DEFAULT_WORKER_TIMEOUT_SECONDS = 30;

type Registered = { definition: JobDefinition; handler: JobHandler<JobDefinition>; workers: string[] };
type Running = { controller: AbortController; done: Promise<void> };

export type FailedJob = {
  id: string;
  key: string | null;
  data: unknown;
  retryCount: number;
  error: string | null;
  failedAt: Date;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The one background job runner: pg-boss on the app's database (PGlite or a PostgreSQL server). Features
 * define their jobs (`defineJob` in their `jobs.ts`) and register a handler before `start()`; a job sent
 * inside a transaction of the app is committed with the rows written beside it. Every instance on the same
 * database works the same queues, and a job is run by one of them at a time.
 */
export function createJobRunner(
  database: DatabaseHandle,
  options: {
    log: FastifyBaseLogger;
    workerTimeoutSeconds?: number;
    /**
     * Only sends jobs (voice worker processes): no workers, no maintenance, and no claim that jobs left
     * running belong to a dead instance (on PGlite the API process is the instance that runs them).
     */
    sendOnly?: boolean;
  },
) {
  const { log } = options;
  const base = executorOf(database);
  // Statements pg-boss has in flight (it completes and fails jobs without waiting): drained before the
  // database closes.
  const inFlight = new Set<Promise<unknown>>();
  const unawaited = unawaitedStatementsOf(JOB_SCHEMA);
  const tracked: SqlExecutor = {
    executeSql(text, values) {
      const promise = base.executeSql(text, values);
      inFlight.add(promise);
      const forget = () => inFlight.delete(promise);
      promise.then(forget, forget);
      if (!unawaited.has(text)) return promise;
      // Nobody waits for the end of an attempt to be written: its failure is logged here. The job stays
      // active and is retried once its runner is found gone or it expires.
      return promise.catch((error: unknown) => {
        log.error({ err: jobFailureOf(error), jobIds: values?.[1] }, "could not record the end of a job");
        return { rows: [{ count: 0 }] };
      });
    },
  };
  const boss = new PgBoss({
    db: tracked,
    schema: JOB_SCHEMA,
    migrate: !options.sendOnly,
    // No cron schedules yet: their clock monitor would poll for nothing.
    schedule: false,
    // Maintenance (any one instance at a time): fails jobs running past their expiry (an instance that
    // died), archives finished jobs after 12 hours and deletes archived ones after 7 days.
    supervise: !options.sendOnly,
    pollingIntervalSeconds: POLLING_INTERVAL_SECONDS,
  });
  boss.on("error", (error) => log.warn({ err: error }, "job runner error"));
  const heartbeat = createWorkerHeartbeat(tracked, boss, {
    timeoutSeconds: options.workerTimeoutSeconds ?? DEFAULT_WORKER_TIMEOUT_SECONDS,
    alone: database.driver.kind === "pglite",
    log,
  });

  const registered = new Map<string, Registered>();
  const running = new Map<string, Running>();
  let state: "new" | "started" | "stopping" | "stopped" = "new";

  function wake(name: string) {
    for (const id of registered.get(name)?.workers ?? []) boss.notifyWorker(id);
  }

  async function runJob(entry: Registered, job: PgBoss.JobWithMetadata<unknown>): Promise<void> {
    // Taken while the instance stops: failed at once, so another instance (or the next start) retries it.
    if (state !== "started") throw new Error("The server is stopping.");
    const { definition, handler } = entry;
    const finalAttempt = job.retryCount >= job.retryLimit;
    const controller = new AbortController();
    const work = (async () => {
      const parsed = definition.payload.safeParse(job.data);
      if (!parsed.success) throw new Error(`Bad payload for job ${definition.name}: ${parsed.error.message}`);
      await handler(parsed.data, {
        id: job.id,
        retryCount: job.retryCount,
        finalAttempt,
        signal: controller.signal,
      });
    })();
    running.set(job.id, { controller, done: work.then(noop, noop) });
    try {
      await work;
    } catch (error) {
      // pg-boss keeps what is thrown as the job's output (jsonb): a short message, never a query's parameters.
      const failure = jobFailureOf(error);
      const details = { err: failure, job: definition.name, jobId: job.id, key: job.singletonKey };
      if (finalAttempt)
        log.error(
          { ...details, attempts: job.retryCount + 1 },
          "background job failed after its last attempt",
        );
      else log.warn({ ...details, attempt: job.retryCount + 1 }, "background job attempt failed; retrying");
      throw failure;
    } finally {
      running.delete(job.id);
      // A job of the same key may have waited for this one to end.
      wake(definition.name);
    }
  }

  return {
    /** Registers the handler of a job definition; before `start()`. */
    register<Definition extends JobDefinition>(definition: Definition, handler: JobHandler<Definition>) {
      if (state !== "new") throw new Error(`Job ${definition.name} registered after the runner started`);
      registered.set(definition.name, {
        definition,
        handler: handler as JobHandler<JobDefinition>,
        workers: [],
      });
    },

    /** Creates (or updates) the queues and starts this instance's workers. */
    async start() {
      if (state !== "new") return;
      await boss.start();
      if (options.sendOnly) {
        state = "started";
        return;
      }
      for (const entry of registered.values()) {
        const { name, options: o } = entry.definition;
        const queue = {
          name,
          policy: o.policy,
          retryLimit: o.retryLimit,
          retryDelay: o.retryDelaySeconds,
          retryBackoff: o.retryBackoff,
          expireInSeconds: o.expireInSeconds,
        };
        await boss.createQueue(name, queue);
        await boss.updateQueue(name, queue);
      }
      // Jobs a server that died left running: retried now rather than at their expiry.
      await heartbeat.start();
      state = "started";
      for (const entry of registered.values()) {
        for (let i = 0; i < entry.definition.options.concurrency; i++) {
          entry.workers.push(
            await boss.work<unknown>(
              entry.definition.name,
              { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: POLLING_INTERVAL_SECONDS },
              async (jobs) => {
                for (const job of jobs) {
                  await heartbeat.claim(job);
                  await runJob(entry, job);
                }
              },
            ),
          );
        }
      }
    },

    /**
     * Queues a job; null when the policy refused it (e.g. one of the same key is already queued). With
     * `transaction`, the job is written in that transaction: call `wake` after it commits. With
     * `startAfter`, it waits until then (a retry on a schedule of the feature's own).
     *
     * pg-boss 10 takes the oldest waiting job, and fails to take one whose key is running (the policy's
     * unique index), which would hold up the jobs of other keys behind it until that key's job ends. A job
     * sent while its key runs is therefore queued at a lower priority, behind the other keys' jobs.
     */
    async send<Definition extends JobDefinition>(
      definition: Definition,
      payload: JobPayload<Definition>,
      sendOptions: { transaction?: Database; startAfter?: Date } = {},
    ): Promise<string | null> {
      if (state !== "started") throw new Error(`Job ${definition.name} sent while the runner is ${state}`);
      // Stored as jsonb, which refuses NUL: the payload's text is cleaned.
      const data = cleanTextDeep(definition.payload.parse(payload)) as object;
      const key = definition.key?.(data);
      const db = sendOptions.transaction ? transactionExecutor(sendOptions.transaction) : tracked;
      let priority = 0;
      if (key !== undefined) {
        const { rows } = await db.executeSql(
          `select 1 from ${JOB_SCHEMA}.job where name = $1 and singleton_key = $2 and state = 'active' limit 1`,
          [definition.name, key],
        );
        if (rows.length > 0) priority = BEHIND_RUNNING_KEY;
      }
      const o = definition.options;
      const id = await boss.send(definition.name, data, {
        priority,
        retryLimit: o.retryLimit,
        retryDelay: o.retryDelaySeconds,
        retryBackoff: o.retryBackoff,
        expireInSeconds: o.expireInSeconds,
        ...(key !== undefined ? { singletonKey: key } : {}),
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        ...(sendOptions.transaction ? { db } : {}),
      });
      if (!sendOptions.transaction) wake(definition.name);
      return id;
    },

    /** Lets this instance's workers of a job look for work now (after a transaction that sent one). */
    wake(definition: JobDefinition) {
      wake(definition.name);
    },

    /**
     * Resolves when no job of these definitions is queued, waiting for a retry or running, on any instance
     * (tests; waiting for work queued so far). Throws after `timeoutMs`.
     */
    async idle(
      definitions: JobDefinition[] = [...registered.values()].map((r) => r.definition),
      timeoutMs = 30_000,
    ) {
      const names = definitions.map((d) => d.name);
      const until = Date.now() + timeoutMs;
      for (;;) {
        const { rows } = await tracked.executeSql(
          `select count(*)::int as n from ${JOB_SCHEMA}.job where name = any($1::text[]) and state < 'completed'`,
          [names],
        );
        if (Number(rows[0]?.n ?? 0) === 0 && running.size === 0) return;
        if (Date.now() > until)
          throw new Error(`Jobs of ${names.join(", ")} still unfinished after ${timeoutMs} ms`);
        for (const name of names) wake(name);
        await sleep(20);
      }
    },

    /** The jobs of a definition that failed for good (after their last retry), newest first. */
    async failed(definition: JobDefinition, limit = 100): Promise<FailedJob[]> {
      const columns = `id::text as id, singleton_key as key, data, retry_count as "retryCount",
        output->>'message' as error, completed_on as "failedAt"`;
      const { rows } = await tracked.executeSql(
        `select * from (
           select ${columns} from ${JOB_SCHEMA}.job where name = $1 and state = 'failed'
           union all
           select ${columns} from ${JOB_SCHEMA}.archive where name = $1 and state = 'failed'
         ) failed order by "failedAt" desc limit $2`,
        [definition.name, limit],
      );
      return rows.map((row) => ({
        ...(row as FailedJob),
        failedAt: new Date(row.failedAt as string | Date),
      }));
    },

    /**
     * Stops taking jobs, lets running ones finish for up to `graceMs`, then aborts the rest (their attempt
     * fails and is retried later, here or on another instance), and waits until pg-boss has nothing left
     * in flight: the database may close after.
     */
    async stop(graceMs: number) {
      if (state !== "started") {
        state = "stopped";
        return;
      }
      state = "stopping";
      for (const entry of registered.values()) for (const id of entry.workers) await boss.offWork({ id });
      if (running.size > 0) {
        const all = () => Promise.all([...running.values()].map((r) => r.done));
        await Promise.race([all(), sleep(graceMs)]);
        for (const r of running.values()) r.controller.abort(new Error("The server is stopping."));
        await all();
      }
      await boss.stop({ graceful: true, close: false, wait: true, timeout: 1000 });
      // Its row goes last: a job still active now is released by the other instances (or the next start).
      await heartbeat.stop().catch((error) => log.warn({ err: error }, "job runner heartbeat not removed"));
      // Completions and failures pg-boss sent without waiting, and anything they set off in the same turn.
      do {
        await Promise.allSettled([...inFlight]);
        await settled();
      } while (inFlight.size > 0);
      state = "stopped";
    },
  };
}

function noop() {}

export type JobRunner = ReturnType<typeof createJobRunner>;
