import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type PgBoss from "pg-boss";
import { JOB_SCHEMA } from "./schema.ts";
import type { SqlExecutor } from "./sql.ts";

/** What a released job's attempt shows as its failure (`failed()`, the logs). */
export const RELEASED_MESSAGE = "The server running this job stopped before it ended.";

/** Most often a runner reports; it reports at least five times per timeout. */
const MAX_BEAT_MS = 5_000;

export type WorkerHeartbeatOptions = {
  /** A runner that has not reported for this long is dead: its running jobs are retried. */
  timeoutSeconds: number;
  /**
   * No other process can be at work on this database (PGlite: one process holds it): every job running
   * when this one starts belongs to a runner that died.
   */
  alone: boolean;
  log: FastifyBaseLogger;
};

/**
 * The runner's presence on the database, so that the jobs of a server that died (kill -9, a lost host)
 * are retried within seconds instead of at their pg-boss expiry (up to 45 minutes for a call task). Each
 * runner has an id and a row in `job_workers` it refreshes every few seconds; it tags each job it takes
 * with its id (in the job's `output`, which pg-boss overwrites when the job completes or fails). At start
 * and at every report, the active jobs tagged with a runner that stopped reporting (or whose row is gone)
 * are failed through pg-boss (so they count as an attempt, and a job that kills every server that runs it
 * still ends) and retried at once; so is an active job with no tag that has run for three timeouts (its
 * runner died between taking it and tagging it: seen in a kill -9 test, where it waited 45 minutes).
 */
export function createWorkerHeartbeat(db: SqlExecutor, boss: PgBoss, options: WorkerHeartbeatOptions) {
  const id = randomUUID();
  const { timeoutSeconds, log } = options;
  const beatMs = Math.max(50, Math.min(MAX_BEAT_MS, (timeoutSeconds * 1000) / 5));
  let timer: NodeJS.Timeout | null = null;
  let tick: Promise<void> | null = null;
  let stopped = false;

  async function beat() {
    await db.executeSql(
      `insert into job_workers (id) values ($1)
       on conflict (id) do update set last_seen_at = now()`,
      [id],
    );
  }

  /**
   * Releases the active jobs of dead runners: each is first tagged with this runner (so a second releaser
   * skips it, and it is released again should this runner die too), then failed for a retry now.
   */
  async function release(everyoneElseIsDead: boolean): Promise<number> {
    // A job with no runner's tag was taken by a runner that died before it could tag it (it tags a job the
    // moment pg-boss hands it over): dead once it has run for three timeouts (one would also catch a live
    // runner whose tagging waits behind a busy database connection).
    const othersDead = everyoneElseIsDead
      ? "coalesce(j.output->>'worker', '') <> $1"
      : `(j.output->>'worker' is null
           and j.started_on < now() - make_interval(secs => 3 * $2::double precision))
         or (j.output->>'worker' <> $1
           and not exists (select 1 from job_workers w where w.id = j.output->>'worker'
             and w.last_seen_at > now() - make_interval(secs => $2::double precision)))`;
    // Or one this runner began to release and could not fail (the database failed in between).
    const dead = `(${othersDead}) or (j.output->>'worker' = $1 and j.output->>'releasing' is not null)`;
    const values = everyoneElseIsDead ? [id] : [id, timeoutSeconds];
    const { rows } = await db.executeSql(
      `with dead as (
         select j.name, j.id from ${JOB_SCHEMA}.job j
         where j.state = 'active' and (${dead})
         for update of j skip locked
       )
       update ${JOB_SCHEMA}.job j set output = jsonb_build_object('worker', $1::text, 'releasing', true)
       from dead where j.name = dead.name and j.id = dead.id
       returning j.name, j.id::text as id`,
      values,
    );
    const byName = new Map<string, string[]>();
    for (const row of rows as { name: string; id: string }[])
      byName.set(row.name, [...(byName.get(row.name) ?? []), row.id]);
    for (const [name, ids] of byName) {
      for (const jobId of ids) await boss.fail(name, jobId, { message: RELEASED_MESSAGE });
      // A retry waits out its backoff after a failure of the job; a server that died is not one.
      await db.executeSql(
        `update ${JOB_SCHEMA}.job set start_after = now()
         where name = $1 and id = any($2::uuid[]) and state = 'retry'`,
        [name, ids],
      );
      log.warn({ job: name, jobIds: ids }, "released the running jobs of a server that stopped");
    }
    // Rows of dead runners: their jobs are released (a runner without a row counts as dead).
    await db.executeSql(
      `delete from job_workers
       where id <> $1 and last_seen_at < now() - make_interval(secs => $2::double precision)`,
      [id, timeoutSeconds],
    );
    return rows.length;
  }

  function schedule() {
    timer = setTimeout(() => {
      tick = (async () => {
        try {
          await beat();
          await release(false);
        } catch (error) {
          log.warn({ err: error }, "job runner heartbeat failed");
        }
      })();
      void tick.finally(() => {
        tick = null;
        if (!stopped) schedule();
      });
    }, beatMs);
    timer.unref();
  }

  return {
    id,

    /** Reports this runner and releases what dead runners left running; before its workers start. */
    async start() {
      await beat();
      if (options.alone) await db.executeSql("delete from job_workers where id <> $1", [id]);
      await release(options.alone);
      schedule();
    },

    /** Marks a job this runner just took as its own. */
    async claim(job: { name: string; id: string }) {
      await db.executeSql(
        `update ${JOB_SCHEMA}.job set output = jsonb_build_object('worker', $1::text)
         where name = $2 and id = $3 and state = 'active'`,
        [id, job.name, job.id],
      );
    },

    /** Releases what dead runners left running now (tests; the timer does it every few seconds). */
    releaseDead: () => release(false),

    /** Stops reporting and removes this runner's row: anything it still had running is released by others. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await tick;
      await db.executeSql("delete from job_workers where id = $1", [id]);
    },
  };
}

export type WorkerHeartbeat = ReturnType<typeof createWorkerHeartbeat>;
