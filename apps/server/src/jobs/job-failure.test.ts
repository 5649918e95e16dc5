import { isCleanText } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { within } from "../../../../vitest.time-limits.ts";
import { createTestDatabase, logCapture } from "../../test/helpers.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { createLogger } from "../logger.ts";
import { defineJob } from "./job.ts";
import { jobFailureOf, unawaitedStatementsOf } from "./job-failure.ts";
import { createJobRunner, type JobRunner } from "./runner.ts";
import { JOB_SCHEMA } from "./schema.ts";

describe("jobFailureOf", () => {
  it("keeps a query error's driver message, never the statement's parameters or the cause", () => {
    const driverError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: "22021",
    });
    const queryError = Object.assign(
      new Error(`Failed query: insert into "kb_chunks" values ($1)\nparams: secret\u0000${"x".repeat(5000)}`),
      { query: 'insert into "kb_chunks" values ($1)', params: [`secret\u0000${"x".repeat(5000)}`] },
    );
    queryError.cause = driverError;
    const failure = jobFailureOf(queryError) as Error & { code?: string };
    expect(failure.message).toBe('invalid byte sequence for encoding "UTF8": 0x00');
    expect(failure.code).toBe("22021");
    expect(failure.cause).toBeUndefined();
    // What pg-boss stores: its own keys and the message and stack, nothing else.
    expect(Object.keys(failure).sort()).toEqual(["code", "name"]);
    expect(failure.stack).not.toContain("secret");
    expect(failure.stack).not.toContain("params");
    expect(JSON.stringify({ ...failure, message: failure.message, stack: failure.stack })).not.toContain(
      "\\u0000",
    );
  });

  it("cuts a long message to 500 characters of clean text", () => {
    const failure = jobFailureOf(new TypeError(`bad\u0000 ${"\ud800y".repeat(100_000)}`));
    expect(failure.name).toBe("TypeError");
    expect(failure.message.length).toBeLessThanOrEqual(500);
    expect(failure.message.startsWith("bad y")).toBe(true);
    expect(isCleanText(failure.message)).toBe(true);
  });

  it("describes what is not an error, and an error it cannot read", () => {
    expect(jobFailureOf("plain words").message).toBe("plain words");
    expect(jobFailureOf({ some: "object" }).message).toBe("The job failed.");
    const unreadable = new Error("x");
    Object.defineProperty(unreadable, "message", {
      get() {
        throw new Error("no");
      },
    });
    expect(jobFailureOf(unreadable).message).toBe("The job failed.");
  });
});

/** A database whose statements among `failing` fail (once each) as if the connection had dropped. */
function withFailingStatements(handle: DatabaseHandle, failing: Set<string>): DatabaseHandle {
  const intercept = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object);
        if (property !== "query" || typeof value !== "function")
          return typeof value === "function" ? value.bind(object) : value;
        return (text: unknown, ...rest: unknown[]) => {
          if (typeof text === "string" && failing.delete(text))
            return Promise.reject(new Error("Connection terminated unexpectedly"));
          return value.call(object, text, ...rest);
        };
      },
    });
  const driver = handle.driver;
  return {
    ...handle,
    driver:
      driver.kind === "pglite"
        ? { kind: "pglite", client: intercept(driver.client) }
        : { kind: "postgres", pool: intercept(driver.pool) },
  };
}

const probeJob = defineJob({
  name: "test-probe",
  payload: z.object({ kind: z.string() }),
  options: {
    policy: "standard",
    retryLimit: 0,
    retryDelaySeconds: 1,
    retryBackoff: false,
    expireInSeconds: 60,
    concurrency: 1,
  },
});

describe("the job runner", { timeout: within(60_000) }, () => {
  let database: DatabaseHandle;
  let jobs: JobRunner;
  const failing = new Set<string>();
  const logs = logCapture();
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  const ran: string[] = [];

  beforeAll(async () => {
    process.on("unhandledRejection", onRejection);
    database = await createTestDatabase();
    const log = createLogger("info", logs.stream) as unknown as FastifyBaseLogger;
    jobs = createJobRunner(withFailingStatements(database, failing), { log });
    jobs.register(probeJob, async ({ kind }) => {
      ran.push(kind);
      if (kind === "nul-insert")
        // A statement PostgreSQL refuses, whose parameter jsonb would refuse too.
        await database.db.execute(sql`select ${`Hello\u0000world`}::text`);
      if (kind === "huge") throw new Error(`broken ${"\u0000".repeat(10)}${"y".repeat(2_000_000)}`);
    });
    await jobs.start();
  });
  afterEach(() => {
    expect(rejections).toEqual([]);
  });
  afterAll(async () => {
    await jobs?.stop(1000);
    await database?.close();
    process.off("unhandledRejection", onRejection);
  });

  it("records a failed query as its driver's message: the failure is stored, nothing is left running", async () => {
    await jobs.send(probeJob, { kind: "nul-insert" });
    await jobs.idle([probeJob]);
    const [failed] = await jobs.failed(probeJob);
    expect(failed?.data).toEqual({ kind: "nul-insert" });
    expect(failed?.error).toMatch(/^invalid byte sequence for encoding "UTF8": 0x00$/);
  });

  it("records a huge message with NUL in it, cut short and clean", async () => {
    await jobs.send(probeJob, { kind: "huge" });
    await jobs.idle([probeJob]);
    const failed = (await jobs.failed(probeJob)).find(
      (job) => (job.data as { kind: string }).kind === "huge",
    );
    expect(failed?.error?.startsWith("broken y")).toBe(true);
    expect(failed?.error?.length).toBeLessThanOrEqual(500);
  });

  it("cleans a payload's text before storing it as jsonb", async () => {
    await jobs.send(probeJob, { kind: "clean\u0000ed\uffff" });
    await jobs.idle([probeJob]);
    expect(ran).toContain("cleaned");
  });

  it("logs a failed write of a job's end instead of leaving it an unhandled rejection", async () => {
    const [complete] = [...unawaitedStatementsOf(JOB_SCHEMA)];
    failing.add(complete as string);
    await jobs.send(probeJob, { kind: "fine" });
    const deadline = Date.now() + 20_000;
    while (!logs.text().includes("could not record the end of a job") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logs.text()).toContain("Connection terminated unexpectedly");
    expect(failing.size).toBe(0);
    // The runner goes on: the next job runs and completes.
    await jobs.send(probeJob, { kind: "after" });
    const until = Date.now() + 20_000;
    while (!ran.includes("after") && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toContain("after");
  });
});
