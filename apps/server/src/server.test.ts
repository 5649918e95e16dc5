import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isNotNull } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openPglite } from "./db/client.ts";
import { serverInstances } from "./db/schema/index.ts";

/**
 * Start-up compiles the server with tsx and migrates a fresh database: seconds when idle, much longer on a
 * loaded machine. The test waits for readiness itself; this is only the bound on a start that never comes.
 */
const START_BUDGET_MS = 120_000;

let child: ChildProcess | undefined;
afterEach(() => {
  // A failed or timed-out run must not leave a server behind.
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
});

/** Polls `url` until it answers 200 (the database answers), or fails at `deadline`. */
async function waitUntilReady(url: string, deadline: number): Promise<Response> {
  for (;;) {
    const answer = await fetch(url).catch(() => undefined);
    if (answer?.status === 200) return answer;
    if (Date.now() > deadline) throw new Error(`${url} not ready: ${answer?.status ?? "no answer"}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("server process", () => {
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    "starts on its embedded database, prints its URL, and on SIGTERM closes cleanly",
    async () => {
      const deadline = Date.now() + START_BUDGET_MS - 10_000;
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "sb-server-"));
      const server = spawn(
        process.execPath,
        ["--import", "tsx", path.resolve(import.meta.dirname, "server.ts")],
        {
          env: { ...process.env, PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      child = server;
      let output = "";
      server.stderr.on("data", (chunk) => {
        output += chunk;
      });
      // The "running at" line is printed once the server listens.
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout.on("data", (chunk) => {
          output += chunk;
          const match = /running at (http:\/\/127\.0\.0\.1:\d+)\/app/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        server.on("exit", () => reject(new Error(`server exited early:\n${output}`)));
      });
      const ready = await waitUntilReady(`${url}/readyz`, deadline);
      expect(await ready.json()).toEqual({ status: "ready", database: "pglite", unexpectedErrors: 0 });

      const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
      server.kill("SIGTERM");
      expect(await exited).toBe(0);

      const reopened = await openPglite({ dataDir: path.join(dataDir, "pglite") });
      const stopped = await reopened.db
        .select()
        .from(serverInstances)
        .where(isNotNull(serverInstances.stoppedAt));
      expect(stopped).toHaveLength(1);
      await reopened.close();
    },
    START_BUDGET_MS,
  );
});
