// SIP edge (issue #17): the SIP server with the edge policy of the SIP developer settings (allow-list screen,
// per-source flood limits, captures of every message) against sipp on loopback.
//  1. INVITEs per second answered: sipp's built-in uac from an allowed source (127.0.0.1 on the allow-list)
//     at a rising rate, each call answered at once (no speech pipeline: this measures the edge and the SIP
//     and RTP set-up), held 1 s and hung up. A rate holds when every call is answered.
//  2. Refused sources: a flood of INVITEs from 127.0.0.2 (on no list) at a high rate: how many a second are
//     answered 403 or dropped unparsed by the token bucket, and the server's CPU meanwhile.
//  3. Allowed-call setup time (INVITE received to 200 OK sent, from the capture tap) p95 with and without
//     that flood running at the same time.
// BENCH_SIZE=smoke: small rates and short steps. Needs sipp (`node scripts/ensure-voice-tools.mjs`).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSipEdgePolicy } from "../apps/server/src/modules/sip-settings/sip-edge.ts";
import { createCaptureRecorder } from "../apps/server/src/modules/voice/sip/sip-capture.ts";
import { getHeader } from "../apps/server/src/modules/voice/sip/sip-message.ts";
import { startSipServer } from "../apps/server/src/modules/voice/sip/sip-server.ts";
import { freeUdpPort, haveSipp, SIPP, SIPP_MISSING } from "../apps/server/src/modules/voice/sip/sipp.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const RATES = SMOKE ? [10, 20] : [25, 50, 100, 200];
const STEP_SECONDS = SMOKE ? 2 : 4;
const FLOOD_RATE = SMOKE ? 200 : 1000;
const FLOOD_SECONDS = SMOKE ? 3 : 5;
const SETUP_RATE = SMOKE ? 10 : 20;

if (!haveSipp) {
  console.log(`skipped: ${SIPP_MISSING}`);
  process.exit(0);
}

let captured = 0;
const recorder = createCaptureRecorder({
  sink: async (messages) => {
    captured += messages.length;
  },
  localAddress: () => ({ address: "127.0.0.1", port: 0 }),
});
const policy = createSipEdgePolicy({ trustLoopback: false, sourceRate: 200, unlistedRate: 10, recorder });
policy.setAllowlist([{ orgId: 1, ip: "127.0.0.1" }]);

const inviteAt = new Map<string, number>();
const setupMs: number[] = [];
let answered = 0;
let refused403 = 0;
const server = await startSipServer({
  host: "127.0.0.1",
  port: 0,
  admit: policy.edge.admit,
  screen: policy.edge.screen,
  tap: (direction, message, remote) => {
    policy.edge.tap(direction, message, remote);
    const callId = getHeader(message, "Call-ID") ?? "";
    if (
      direction === "in" &&
      message.kind === "request" &&
      message.method === "INVITE" &&
      !inviteAt.has(callId)
    )
      inviteAt.set(callId, performance.now());
    if (direction === "out" && message.kind === "response") {
      if (message.status === 403) refused403++;
      if (message.status === 200 && getHeader(message, "CSeq")?.endsWith("INVITE")) {
        const start = inviteAt.get(callId);
        if (start !== undefined) {
          setupMs.push(performance.now() - start);
          inviteAt.delete(callId);
        }
      }
    }
  },
  onCall: () => {
    answered++;
    return undefined;
  },
});

/** sipp's built-in uac from `localIp` at `rate` calls a second, `calls` in all, each held `holdMs`. */
async function sipp(localIp: string, rate: number, calls: number, holdMs: number) {
  const cwd = mkdtempSync(path.join(tmpdir(), "sipp-bench-"));
  const args = [
    "-sn",
    "uac",
    `127.0.0.1:${server.port}`,
    "-s",
    "1",
    "-i",
    localIp,
    "-p",
    String(await freeUdpPort()),
    "-mp",
    String(await freeUdpPort()),
    "-m",
    String(calls),
    "-r",
    String(rate),
    "-l",
    String(Math.max(rate * 3, 10)),
    "-d",
    String(holdMs),
    "-nostdin",
    "-timeout",
    "60s",
    "-max_recv_loops",
    "10000",
    "-max_sched_loops",
    "10000",
    "-recv_timeout",
    "4000",
  ];
  const child = spawn(SIPP, args, { cwd, stdio: "ignore" });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  rmSync(cwd, { recursive: true, force: true });
  return code;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)] ?? Number.NaN;
};
const cpuPercent = (cpu: NodeJS.CpuUsage, seconds: number) =>
  (((cpu.user + cpu.system) / 1e6 / seconds) * 100).toFixed(1);

// 1. Rising rate from the allowed source.
let held = 0;
for (const rate of RATES) {
  const calls = rate * STEP_SECONDS;
  answered = 0;
  setupMs.length = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const code = await sipp("127.0.0.1", rate, calls, 1000);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const ok = answered === calls && code === 0;
  if (ok) held = rate;
  console.log(
    `allowed uac at ${rate}/s: ${answered} of ${calls} answered (${(answered / STEP_SECONDS).toFixed(1)} INVITEs/s), sipp exit ${code}, setup p95 ${quantile(setupMs, 0.95).toFixed(1)} ms, server CPU ${cpuPercent(used, seconds)}% of one core`,
  );
  if (!ok) break;
}
console.log(`INVITEs per second answered: every call up to ${held}/s (rates tried: ${RATES.join(", ")})`);

// 3a. Setup time without a flood.
setupMs.length = 0;
await sipp("127.0.0.1", SETUP_RATE, SETUP_RATE * FLOOD_SECONDS, 200);
const quiet = quantile(setupMs, 0.95);
const quietCount = setupMs.length;

// 2 and 3b. The flood from 127.0.0.2, and allowed calls beside it.
refused403 = 0;
const droppedBefore = policy.stats().droppedUnlisted;
setupMs.length = 0;
const cpu = process.cpuUsage();
const started = performance.now();
const floodCalls = FLOOD_RATE * FLOOD_SECONDS;
await Promise.all([
  sipp("127.0.0.2", FLOOD_RATE, floodCalls, 0),
  (async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sipp("127.0.0.1", SETUP_RATE, SETUP_RATE * FLOOD_SECONDS, 200);
  })(),
]);
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
const dropped = policy.stats().droppedUnlisted - droppedBefore;
const flooded = quantile(setupMs, 0.95);
await recorder.flush();
console.log(
  `refused source flood: ${floodCalls} INVITEs at ${FLOOD_RATE}/s from 127.0.0.2 (sipp's retransmissions included below): ${refused403} answered 403, ${dropped} messages dropped unparsed by the token bucket; ${((refused403 + dropped) / seconds).toFixed(0)} refused messages handled a second; server CPU ${cpuPercent(used, seconds)}% of one core`,
);
console.log(
  `allowed-call setup time p95 (INVITE in to 200 OK out): ${quiet.toFixed(1)} ms without the flood (${quietCount} calls), ${flooded.toFixed(1)} ms during it (${setupMs.length} calls)`,
);
console.log(`messages captured: ${captured} (refused calls capped at 30 a minute per source)`);
const bench = "sip-edge";
reportFigure({ bench, name: "INVITEs per second answered", value: held, unit: "calls/s", better: "higher" });
reportFigure({
  bench,
  name: "refused messages handled",
  value: (refused403 + dropped) / seconds,
  unit: "messages/s",
  better: "higher",
});
reportFigure({ bench, name: "setup p95 without flood", value: quiet, unit: "ms", better: "lower" });
reportFigure({ bench, name: "setup p95 during flood", value: flooded, unit: "ms", better: "lower" });
await recorder.stop();
await server.close();
if (held === 0 || setupMs.length === 0) process.exit(1);
