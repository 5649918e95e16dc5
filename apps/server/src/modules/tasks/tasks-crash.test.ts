import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import * as api from "@switchboard/api";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { buildTestApp, createSharedTestDatabase, testConfig } from "../../../test/helpers.ts";
import { prepareTaskAgent } from "../../../test/task-fixtures.ts";
import { waitFor } from "../../../test/wait-for.ts";
import { buildApp } from "../../app.ts";
import { executeRows } from "../../db/client.ts";
import { carrierMessages, tasks } from "../../db/schema/index.ts";
import { JOB_SCHEMA } from "../../jobs/schema.ts";
import { TEXT_SEND_UNKNOWN } from "./channels.ts";
import { runTaskJob } from "./jobs.ts";

const AGENT_NUMBER = "+15035550177";

type SharedDatabase = Awaited<ReturnType<typeof createSharedTestDatabase>>;

function prepare(app: FastifyInstance, maxConcurrent = 3) {
  return prepareTaskAgent(app, AGENT_NUMBER, { maxConcurrent });
}

/** Texts the sandbox carrier delivered from the agent's number, per handset. */
async function handsets(app: FastifyInstance): Promise<Map<string, string[]>> {
  const rows = await app.context.database.db
    .select({ to: carrierMessages.toAddress, body: carrierMessages.body })
    .from(carrierMessages)
    .where(and(eq(carrierMessages.direction, "outbound"), eq(carrierMessages.fromAddress, AGENT_NUMBER)));
  const map = new Map<string, string[]>();
  for (const row of rows) map.set(row.to, [...(map.get(row.to) ?? []), row.body]);
  return map;
}

/** The state of a task's run job: 'retry' once its first run ended in an error. */
async function runJobState(app: FastifyInstance, taskId: string): Promise<string | null> {
  const [row] = await executeRows<{ state: string }>(
    app.context.database.db,
    sql.raw(`select state::text as state from ${JOB_SCHEMA}.job
      where name = '${runTaskJob.name}' and singleton_key = '${taskId}' order by created_on desc limit 1`),
  );
  return row?.state ?? null;
}

/** Its retry now rather than after the job's backoff. */
async function retryNow(app: FastifyInstance) {
  await app.context.database.db.execute(
    sql.raw(
      `update ${JOB_SCHEMA}.job set start_after = now() where name = '${runTaskJob.name}' and state = 'retry'`,
    ),
  );
  app.context.jobs.wake(runTaskJob);
}

/**
 * The database refuses what a server dying at that moment would never have written: after the carrier was
 * asked, the message's delivery state (and, with `carrierFails`, the sandbox handset's copy of the text).
 * Returns what puts things back.
 */
async function dieAfterAskingTheCarrier(app: FastifyInstance, options: { carrierFails?: boolean } = {}) {
  const db = app.context.database.db;
  await db.execute(
    sql.raw(`create or replace function test_server_died() returns trigger language plpgsql as $$
      begin raise exception 'the server died here'; end $$`),
  );
  await db.execute(
    sql.raw(`create trigger test_server_died before update on conversation_messages
      for each row when (old.delivery_status = 'queued') execute function test_server_died()`),
  );
  if (options.carrierFails)
    await db.execute(
      sql.raw(`create trigger test_server_died before insert on carrier_messages
        for each row when (new.direction = 'outbound') execute function test_server_died()`),
    );
  return async () => {
    await db.execute(sql.raw("drop trigger if exists test_server_died on conversation_messages"));
    await db.execute(sql.raw("drop trigger if exists test_server_died on carrier_messages"));
  };
}

/** Creates a text task whose first run dies while sending, then lets it run again; answers the task. */
async function runDyingOnce(
  app: FastifyInstance,
  owner: Awaited<ReturnType<typeof prepare>>["owner"],
  agentId: number,
  phoneNumber: string,
  options: { carrierFails?: boolean } = {},
) {
  const revive = await dieAfterAskingTheCarrier(app, options);
  const { task } = await owner.call(api.createTask, {
    body: { agentId, phoneNumber, message: `Only once to ${phoneNumber}.` },
  });
  const first = await waitFor(
    () => runJobState(app, task.id),
    (state) => state === "retry",
  );
  expect(first).toBe("retry");
  await revive();
  await retryNow(app);
  await app.tasks.idle();
  return (await owner.call(api.getTask, { params: { id: task.id } })).task;
}

describe("a text whose send its server never saw end (it died while asking the carrier)", () => {
  let app: FastifyInstance;
  let owner: Awaited<ReturnType<typeof prepare>>["owner"];
  let agentId: number;

  beforeAll(async () => {
    app = await buildTestApp();
    const prepared = await prepare(app);
    owner = prepared.owner;
    agentId = prepared.world.accounts.A1.id;
  }, within(120_000));
  afterAll(async () => {
    await app?.close();
  });

  it(
    "the carrier took it: the next run does not text the person again",
    async () => {
      const task = await runDyingOnce(app, owner, agentId, "+15035550301");
      expect((await handsets(app)).get("+15035550301")).toEqual(["Only once to +15035550301."]);
      expect(task.state).toBe("completed");
      expect(task.attempts).toBe(1);
    },
    within(60_000),
  );

  it(
    "the carrier never got it (the sandbox knows): the next run sends it, once",
    async () => {
      const task = await runDyingOnce(app, owner, agentId, "+15035550302", { carrierFails: true });
      expect((await handsets(app)).get("+15035550302")).toEqual(["Only once to +15035550302."]);
      expect(task.state).toBe("completed");
    },
    within(60_000),
  );
});

describe("the same with Twilio, which cannot say whether it took a message", () => {
  let twilio: Server;
  const posts: string[] = [];
  let app: FastifyInstance;

  beforeAll(async () => {
    twilio = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        posts.push(new URLSearchParams(body).get("To") ?? "");
        response.writeHead(201, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ sid: `SM${String(posts.length).padStart(32, "0")}`, status: "queued" }),
        );
      });
    });
    await new Promise<void>((resolve) => twilio.listen(0, "127.0.0.1", resolve));
    app = await buildTestApp({
      PUBLIC_URL: "https://switchboard.example.com",
      SMS_PROVIDER: "twilio",
      TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000002",
      TWILIO_AUTH_TOKEN: "twilio-test-auth-token-0123456789",
      TWILIO_API_URL: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`,
    });
  }, within(120_000));
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => twilio?.close(resolve));
  });

  it(
    "the task fails as possibly sent, and the person gets no second text",
    async () => {
      const { world, owner } = await prepare(app);
      const task = await runDyingOnce(app, owner, world.accounts.A1.id, "+15035550303");
      expect(posts).toEqual(["+15035550303"]);
      expect(task.state).toBe("failed");
      expect(task.lastError).toBe(TEXT_SEND_UNKNOWN);
    },
    within(60_000),
  );
});

/**
 * A stand-in for api.twilio.com that records the number each text goes to and answers like Twilio, except
 * the `holdAt`-th text: taken, and never answered (the server is killed while it waits).
 */
async function fakeTwilio(holdAt: number) {
  const posts: string[] = [];
  let holding: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      posts.push(new URLSearchParams(body).get("To") ?? "");
      if (posts.length === holdAt) return holding();
      response.writeHead(201, { "content-type": "application/json" });
      response.end(JSON.stringify({ sid: `SM${String(posts.length).padStart(32, "0")}`, status: "queued" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    posts,
    held,
    env: {
      SMS_PROVIDER: "twilio",
      TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000003",
      TWILIO_AUTH_TOKEN: "twilio-test-auth-token-0123456789",
      TWILIO_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

describe("a server killed (kill -9) in the middle of a text list", () => {
  /** Start-up compiles the server with tsx: seconds when idle, longer on a loaded machine. */
  const START_BUDGET_MS = 120_000;
  /** A runner silent this long is dead: short, so the test does not wait long on a PostgreSQL server. */
  const timeout = { JOB_WORKER_TIMEOUT_SECONDS: "2" };
  const people = Array.from({ length: 120 }, (_, i) => `+1503556${String(1000 + i)}`);
  let child: ChildProcess | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  /**
   * A list of texts to `people`, uploaded while at most one text a day may go; then a server process on the
   * same database, where the limit is raised so that the list runs there. Answers the process, killed
   * with SIGKILL once `killWhen` resolves, and the database for the next server.
   */
  async function killInTheMiddle(
    env: Record<string, string>,
    killWhen: (shared: SharedDatabase) => Promise<unknown>,
  ) {
    const shared = await createSharedTestDatabase();
    cleanups.push(shared.drop);
    const setup = await buildApp(testConfig(env), { database: await shared.open() });
    const { world, owner } = await prepare(setup, 4);
    await owner.call(api.saveTaskLimits, { body: { dailyLimit: 1 } });
    const form = new FormData();
    form.append("csv", new Blob([`phone\n${people.join("\n")}\n`], { type: "text/csv" }), "people.csv");
    await owner.call(api.uploadTaskCsv, {
      query: { agentId: world.accounts.A1.id, message: "Hello {phone}" },
      form,
    });
    await setup.close();

    const server = spawn(
      process.execPath,
      ["--import", "tsx", path.resolve(import.meta.dirname, "../../server.ts")],
      {
        env: { ...process.env, ...shared.env, ...env, PORT: "0", SIP_PORT: "0", LOG_LEVEL: "warn" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = server;
    let output = "";
    server.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise((resolve) => server.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout?.on("data", (chunk) => {
        output += chunk;
        const match = /running at (http:\/\/127\.0\.0\.1:\d+)\/app/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      server.on("exit", () => reject(new Error(`server exited early:\n${output}`)));
      setTimeout(() => reject(new Error(`server not started:\n${output}`)), START_BUDGET_MS).unref();
    });
    const remote = api.createApiClient({
      baseUrl: url,
      getToken: () => world.members.o1Owner.token,
      getTargetAccountId: () => world.accounts.O1.id,
    });
    await remote.call(api.saveTaskLimits, { body: { dailyLimit: 1000 } });
    await killWhen(shared);
    server.kill("SIGKILL");
    await exited;

    const database = await shared.open();
    const [left] = await executeRows<{ running: number }>(
      database.db,
      sql`select count(*) filter (where state = 'in_progress')::int as running from tasks`,
    );
    // Killed in the middle: tasks were running.
    expect(left?.running).toBeGreaterThan(0);
    const next = await buildApp(testConfig(env), { database });
    cleanups.push(() => next.close());
    const restarted = Date.now();
    const rows = await waitFor(
      () =>
        next.context.database.db
          .select({
            phone: tasks.phoneNumber,
            state: tasks.state,
            attempts: tasks.attempts,
            error: tasks.lastError,
          })
          .from(tasks),
      (list) => list.every((t) => t.state === "completed" || t.state === "failed"),
      90_000,
    );
    // Well within the 45-minute expiry the killed server's runs would have waited for (the bound leaves room
    // for a CI machine running every lane at once).
    expect(Date.now() - restarted).toBeLessThan(90_000);
    expect(rows.filter((t) => t.state !== "completed" && t.state !== "failed")).toEqual([]);
    expect(rows.every((t) => t.attempts === 1)).toBe(true);
    return { next, rows };
  }

  it(
    "Twilio, killed while it had a text and had not answered: the next server finishes the list within seconds, nobody texted twice",
    async () => {
      const twilio = await fakeTwilio(12);
      cleanups.push(twilio.close);
      const env = { ...timeout, ...twilio.env };
      const { rows } = await killInTheMiddle(env, () => twilio.held);
      // Nobody got two texts.
      expect(new Set(twilio.posts).size).toBe(twilio.posts.length);
      // The text the server died waiting on (and any other it had started to send) may or may not have arrived:
      // its task failed as possibly sent, and is not sent again; every other task completed with its one text.
      const unknown = rows.filter((t) => t.state === "failed");
      expect(
        unknown.map((t) => t.error),
        JSON.stringify(unknown),
      ).toEqual(unknown.map(() => TEXT_SEND_UNKNOWN));
      expect(unknown.map((t) => t.phone)).toContain(twilio.posts[11]);
      expect(unknown.length).toBeLessThanOrEqual(4);
      const completed = rows.filter((t) => t.state === "completed").map((t) => t.phone);
      expect(completed.filter((phone) => !twilio.posts.includes(phone))).toEqual([]);
      expect(completed.length + unknown.length).toBe(people.length);
    },
    within(240_000),
  );

  it.skipIf(!process.env.DATABASE_URL)(
    "the sandbox carrier: the next server finishes the list, every person texted exactly once",
    // It once waited out the 90 s here: the server was killed between taking a task's job and tagging it as
    // its own, and the job was left to its 45-minute expiry (the heartbeat now releases such a job too).
    { timeout: within(240_000) },
    async () => {
      const { next, rows } = await killInTheMiddle(timeout, async (shared) => {
        // Killed once 20 handsets have their text (watched on the PostgreSQL server while it runs).
        const watcher = await shared.open();
        try {
          const texted = async () =>
            (
              await executeRows<{ n: number }>(
                watcher.db,
                sql`select count(*)::int as n from carrier_messages
                  where direction = 'outbound' and from_address = ${AGENT_NUMBER}`,
              )
            )[0]?.n ?? 0;
          expect(await waitFor(texted, (n) => n >= 20, 60_000)).toBeLessThan(people.length);
        } finally {
          await watcher.close();
        }
      });
      expect(rows.every((t) => t.state === "completed")).toBe(true);
      const texts = await handsets(next);
      expect([...texts.keys()].sort()).toEqual([...people].sort());
      for (const number of people) expect(texts.get(number), number).toEqual([`Hello ${number}`]);
    },
  );
});
