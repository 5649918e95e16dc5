import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPglite } from "./db/client.ts";
import { serverInstances } from "./db/schema/index.ts";

describe("server process", () => {
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    "starts on its embedded database, prints its URL, and on SIGTERM closes cleanly",
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "sb-server-"));
      const child = spawn(
        process.execPath,
        ["--import", "tsx", path.resolve(import.meta.dirname, "server.ts")],
        {
          env: { ...process.env, PORT: "0", DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "" },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      child.stderr.on("data", (chunk) => {
        output += chunk;
      });
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          output += chunk;
          const match = /running at (http:\/\/127\.0\.0\.1:\d+)\/app/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.on("exit", () => reject(new Error(`server exited early:\n${output}`)));
      });
      const ready = await fetch(`${url}/readyz`);
      expect(await ready.json()).toEqual({ status: "ready", database: "pglite" });

      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);

      const reopened = await openPglite({ dataDir: path.join(dataDir, "pglite") });
      const stopped = await reopened.db
        .select()
        .from(serverInstances)
        .where(isNotNull(serverInstances.stoppedAt));
      expect(stopped).toHaveLength(1);
      await reopened.close();
    },
  );
});
