// Offline recognisers and synthesisers run below the server's priority (VOICE_CHILD_NICE, default 10), so
// they never starve the media thread; 0 turns it off, and without a `nice` binary the command runs as is.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { nicedCommand } from "./child-priority.ts";

/** The niceness of a running process, as the kernel has it (field 19 of /proc/<pid>/stat). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

async function runAt(level: number, nice?: string | null) {
  const { command, args } = nicedCommand("sleep", ["5"], level, nice);
  const child = spawn(command, args);
  await new Promise((resolve) => setTimeout(resolve, 150));
  try {
    // A server already running niced cannot go past 19: the child gets what is left.
    return niceOf(child.pid as number) - niceOf(process.pid);
  } finally {
    child.kill("SIGKILL");
  }
}

describe("offline speech child processes", () => {
  it("run at the configured nice level, 10 by default", async () => {
    const room = 19 - niceOf(process.pid);
    expect(await runAt(10)).toBe(Math.min(10, room));
    expect(await runAt(5)).toBe(Math.min(5, room));
  });

  it("run at the server's own priority when the level is 0 or there is no nice", async () => {
    expect(await runAt(0)).toBe(0);
    expect(await runAt(10, null)).toBe(0);
  });

  it("take VOICE_CHILD_NICE from the environment: 0 to 19, 10 by default", () => {
    expect(loadConfig({}).voice.childNice).toBe(10);
    expect(loadConfig({ VOICE_CHILD_NICE: "0" }).voice.childNice).toBe(0);
    expect(() => loadConfig({ VOICE_CHILD_NICE: "20" })).toThrow(/VOICE_CHILD_NICE/);
  });
});
