import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { within } from "../../../../vitest.time-limits.ts";
import { createTestDatabase } from "../../test/helpers.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { RELEASED_MESSAGE } from "./heartbeat.ts";
import { defineJob } from "./job.ts";
import { createJobRunner, type JobRunner } from "./runner.ts";
import { JOB_SCHEMA } from "./schema.ts";
import { executorOf } from "./sql.ts";

const TIMEOUT_SECONDS = 1;

const probeJob = defineJob({
  name: "test-heartbeat-probe",
  payload: z.object({ n: z.number().int() }),
  options: {
    policy: "standard",
    retryLimit: 3,
    // Far above the test: a released job that waited out its backoff would not run in time.
    retryDelaySeconds: 600,
    retryBackoff: false,
    expireInSeconds: 45 * 60,
    concurrency: 2,
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the jobs of a server that stopped reporting", () => {
  let database: DatabaseHandle;
  let runner: JobRunner;
  const runs: { n: number; retryCount: number }[] = [];
  const sql = (text: string, values?: unknown[]) => executorOf(database).executeSql(text, values);

  /**
   * A job another server took (its runner `worker`; null: killed before it could tag the job), as that
   * server left it.
   */
  async function takenBy(worker: string | null, n: number): Promise<string> {
    const id = await runner.send(probeJob, { n }, { startAfter: new Date(Date.now() + 3_600_000) });
    await sql(
      `update ${JOB_SCHEMA}.job set state = 'active', started_on = now(),
         output = case when $2::text is null then null else jsonb_build_object('worker', $2::text) end
       where name = $3 and id = $1`,
      [id, worker, probeJob.name],
    );
    return String(id);
  }

  const stateOf = async (id: string) =>
    (await sql(`select state, output from ${JOB_SCHEMA}.job where id = $1`, [id])).rows[0] as {
      state: string;
      output: { message?: string; worker?: string };
    };

  beforeAll(async () => {
    database = await createTestDatabase();
    runner = createJobRunner(database, {
      log: pino({ level: "silent" }),
      workerTimeoutSeconds: TIMEOUT_SECONDS,
    });
    runner.register(probeJob, async ({ n }, attempt) => {
      runs.push({ n, retryCount: attempt.retryCount });
    });
    await runner.start();
  }, within(60_000));
  afterAll(async () => {
    await runner.stop(100);
    await database.close();
  });

  it(
    "are retried within seconds, while those of a server that reports are left to it",
    async () => {
      // Both servers report now; one of them stops (kill -9) and the other goes on.
      await sql("insert into job_workers (id) values ('died'), ('alive')");
      const orphan = await takenBy("died", 1);
      const busy = await takenBy("alive", 2);
      const until = Date.now() + 10_000;
      while ((await stateOf(orphan)).state !== "completed" && Date.now() < until) {
        await sql("update job_workers set last_seen_at = now() where id = 'alive'");
        await sleep(100);
      }
      // The dead server's job ran again here, as its next attempt, within seconds (not at its 45-minute expiry).
      expect(runs).toEqual([{ n: 1, retryCount: 1 }]);
      expect((await stateOf(orphan)).state).toBe("completed");
      // The live server's job is still its own.
      expect(await stateOf(busy)).toEqual({ state: "active", output: { worker: "alive" } });
    },
    within(30_000),
  );

  it(
    "a job of a server without a row (removed as long dead) is retried too",
    async () => {
      const orphan = await takenBy("removed", 3);
      const until = Date.now() + 10_000;
      while ((await stateOf(orphan)).state !== "completed" && Date.now() < until) await sleep(100);
      expect(runs.filter((r) => r.n === 3)).toEqual([{ n: 3, retryCount: 1 }]);
    },
    within(30_000),
  );

  it(
    "a job its server took and could not tag before it died is retried once it has run for three timeouts",
    async () => {
      const orphan = await takenBy(null, 5);
      // Not at once: a live runner tags what it takes within milliseconds, a busy one may take a while.
      await sleep(1500);
      expect((await stateOf(orphan)).state).toBe("active");
      const until = Date.now() + 10_000;
      while ((await stateOf(orphan)).state !== "completed" && Date.now() < until) await sleep(100);
      expect(runs.filter((r) => r.n === 5)).toEqual([{ n: 5, retryCount: 1 }]);
    },
    within(30_000),
  );

  it(
    "a job failed for good after its last attempt when released says why",
    async () => {
      const orphan = await takenBy("died", 4);
      await sql(`update ${JOB_SCHEMA}.job set retry_count = retry_limit where id = $1`, [orphan]);
      const until = Date.now() + 10_000;
      while ((await stateOf(orphan)).state === "active" && Date.now() < until) await sleep(100);
      expect(await stateOf(orphan)).toEqual({ state: "failed", output: { message: RELEASED_MESSAGE } });
      expect(runs.some((r) => r.n === 4)).toBe(false);
    },
    within(30_000),
  );
});
