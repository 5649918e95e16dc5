import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../test/helpers.ts";
import { reportUnexpected, unexpectedErrorCount, withUnexpectedContext } from "./process-guard.ts";

// A process with the guard installed that then rejects a promise nobody handles, throws in a timer and
// rejects inside a call's context, and finally says whether it is still there and what it counted.
const CHILD = `
import { installProcessGuard, unexpectedErrorCount, withUnexpectedContext } from ${JSON.stringify(
  path.resolve(import.meta.dirname, "process-guard.ts"),
)};
installProcessGuard({ error: (details, message) => console.log(JSON.stringify({ ...details, err: String(details.err), message })) });
Promise.reject(new Error("nobody handles this"));
setTimeout(() => { throw new Error("thrown in a timer"); }, 10);
withUnexpectedContext({ callId: "call-42" }, () => {
  setTimeout(() => void Promise.reject(new Error("inside a call")), 20);
});
setTimeout(() => console.log(JSON.stringify({ alive: true, count: unexpectedErrorCount() })), 200);
`;

type Line = Record<string, unknown>;

async function runChild(): Promise<{ code: number | null; lines: Line[] }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", CHILD], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  const lines = out
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);
  return { code, lines };
}

describe("process guard", () => {
  it("keeps a process alive through unhandled rejections and uncaught exceptions, logging each with its context", async () => {
    const { code, lines } = await runChild();
    expect(lines.at(-1)).toEqual({ alive: true, count: 3 });
    expect(code).toBe(0);
    expect(lines).toContainEqual(
      expect.objectContaining({ err: "Error: nobody handles this", source: "unhandledRejection" }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ err: "Error: thrown in a timer", source: "uncaughtException" }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        err: "Error: inside a call",
        source: "unhandledRejection",
        callId: "call-42",
      }),
    );
  });

  it("a Node process without it ends at the first unhandled rejection (what the guard prevents)", async () => {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "--eval", 'Promise.reject(new Error("x"));'],
      {
        stdio: "ignore",
      },
    );
    expect(await new Promise((resolve) => child.on("exit", resolve))).not.toBe(0);
  });
});

describe("/readyz", () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("reports the unexpected errors counted so far", async () => {
    const before = (await app.inject({ method: "GET", url: "/readyz" })).json().unexpectedErrors as number;
    expect(before).toBe(unexpectedErrorCount());
    withUnexpectedContext({ callId: "test" }, () => reportUnexpected(new Error("counted"), { note: "test" }));
    const res = await app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "ready", unexpectedErrors: before + 1 });
  });
});
