/**
 * Runs sipp (Debian's `sip-tester`, installed by scripts/ensure-voice-tools.mjs) as the independent SIP peer
 * of the tests and the capacity bench.
 */
import { spawn } from "node:child_process";
import dgram from "node:dgram";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const SIPP = "/usr/bin/sipp";
export const haveSipp = existsSync(SIPP);
export const SIPP_MISSING =
  "sipp is not installed (Debian package sip-tester): run `node scripts/ensure-voice-tools.mjs` as root";
export const SIP_FIXTURES = path.resolve(import.meta.dirname, "../../../../test/fixtures/sip");

async function canBind(port: number): Promise<boolean> {
  const socket = dgram.createSocket("udp4");
  const ok = await new Promise<boolean>((resolve) => {
    socket.once("error", () => resolve(false));
    socket.bind(port, "127.0.0.1", () => resolve(true));
  });
  if (ok) await new Promise<void>((resolve) => socket.close(() => resolve()));
  else socket.close();
  return ok;
}

/** An even UDP port free right now, with its next three (sipp takes media port +1, +2, +3 too). */
export async function freeUdpPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + 2 * Math.floor(Math.random() * 20_000);
    let free = true;
    for (let i = 0; i < 4 && free; i++) free = await canBind(port + i);
    if (free) return port;
  }
}

export type SippRun = { code: number | null; output: string };

/**
 * Dials `127.0.0.1:<port>` with a built-in (`uac`) or fixture scenario. `keys` become `-key name value`
 * ([name] in the scenario). Resolves when sipp exits (code 0: every call succeeded).
 */
export async function runSipp(options: {
  port: number;
  /** The caller's address (default 127.0.0.1; another loopback address is another source). */
  localIp?: string;
  scenario: "uac" | string;
  service?: string;
  calls?: number;
  /** Calls at once (-l) and new calls per second (-r). */
  limit?: number;
  rate?: number;
  /** Default pause length in ms (-d). */
  durationMs?: number;
  keys?: Record<string, string | number>;
  timeoutMs?: number;
  transport?: "u1" | "t1";
  extra?: string[];
}): Promise<SippRun> {
  const cwd = mkdtempSync(path.join(tmpdir(), "sipp-"));
  const sipPort = await freeUdpPort();
  const mediaPort = await freeUdpPort();
  const args = [
    ...(options.scenario === "uac" ? ["-sn", "uac"] : ["-sf", path.join(SIP_FIXTURES, options.scenario)]),
    `127.0.0.1:${options.port}`,
    "-s",
    options.service ?? "1",
    "-i",
    options.localIp ?? "127.0.0.1",
    "-p",
    String(sipPort),
    "-mp",
    String(mediaPort),
    "-m",
    String(options.calls ?? 1),
    "-l",
    String(options.limit ?? options.calls ?? 1),
    "-r",
    String(options.rate ?? 10),
    "-t",
    options.transport ?? "u1",
    "-nostdin",
    "-timeout",
    `${Math.ceil((options.timeoutMs ?? 20_000) / 1000)}s`,
    "-timeout_error",
    "-trace_err",
    ...(options.durationMs !== undefined ? ["-d", String(options.durationMs)] : []),
    ...Object.entries(options.keys ?? {}).flatMap(([key, value]) => ["-key", key, String(value)]),
    ...(options.extra ?? []),
  ];
  const child = spawn(SIPP, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", (status) => resolve(status)));
  try {
    const { readdirSync, readFileSync } = await import("node:fs");
    for (const file of readdirSync(cwd))
      if (file.endsWith("_errors.log"))
        output += `\n${readFileSync(path.join(cwd, file), "utf8").slice(-4000)}`;
  } catch {}
  rmSync(cwd, { recursive: true, force: true });
  return { code, output };
}

const PROBE = `const start = performance.now(); const n = Number(process.argv[1]); let i = 0; const late = [];
function tick() { i++; late.push(performance.now() - (start + i * 20)); if (i < n) setTimeout(tick, Math.max(0, start + (i + 1) * 20 - performance.now())); else { late.sort((a, b) => a - b); console.log(JSON.stringify({ p50: late[Math.floor(n / 2)], p99: late[Math.ceil(n * 0.99) - 1] })); } }
setTimeout(tick, 20);`;

/**
 * How late a bare 20 ms timer fires in another process right now: the machine's own scheduling noise
 * (other processes on the cores). Send jitter cannot be better than this; tests judge ours against it.
 */
export async function timerNoise(durationMs: number): Promise<{ p50: number; p99: number }> {
  const child = spawn(process.execPath, ["-e", PROBE, String(Math.round(durationMs / 20))], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  await new Promise((resolve) => child.on("exit", resolve));
  return JSON.parse(out) as { p50: number; p99: number };
}
