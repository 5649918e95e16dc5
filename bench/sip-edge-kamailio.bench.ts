// The Kamailio SIP edge (scripts/sip-edge.mjs) in front of two Switchboard SIP endpoints, each a process of
// its own (bench/sip-edge-target.ts: the SIP server with the edge policy, answering every call without the
// agent pipeline), dialled by sipp through the edge on loopback:
//  1. Calls a second set up through the edge with 0 failures, at a rising rate: each call INVITE, 200,
//     ACK, held 1 s, BYE, all through the edge (record-routed), spread round robin; a rate holds when every
//     call is answered and hung up and both targets took calls. The edge's CPU (kamailio's processes).
//  2. kill -9 of one target in the middle of a run: how many new calls were lost (0 wanted: the edge tries
//     the next target when one does not answer), how many calls the killed target had (those end: their
//     BYE finds no one), and how long until the OPTIONS probes mark it down.
//  3. The same through the edge to the two voice workers of one server (VOICE_WORKERS=2,
//     VOICE_WORKER_SIP_PORT: the whole call pipeline, speech from a local stand-in of the OpenAI-compatible
//     API as in voice-hosted-capacity): calls a second set up with 0 failures at a rising rate, then kill -9
//     of one worker mid-run: new calls lost (0 wanted), and its calls, each logged once as failed.
// BENCH_SIZE=smoke: small rates and short steps. Needs kamailio (`node scripts/ensure-sip-edge.mjs`) and sipp
// (`node scripts/ensure-voice-tools.mjs`). Not a guard: its figures are reported, never gated.
import { type ChildProcess, fork, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as api from "@switchboard/api";
import { sql } from "drizzle-orm";
import { buildApp } from "../apps/server/src/app.ts";
import { openPglite } from "../apps/server/src/db/client.ts";
import { conversationLogs } from "../apps/server/src/db/schema/index.ts";
import { freeUdpPort, haveSipp, runSipp, SIPP_MISSING } from "../apps/server/src/modules/voice/sip/sipp.ts";
import { WORKER_LOST_ERROR } from "../apps/server/src/modules/voice/workers/supervisor.ts";
import { testClient } from "../apps/server/test/api-client.ts";
import { testConfig } from "../apps/server/test/helpers.ts";
import { demoFrontDesk } from "../apps/server/test/voice-fixtures.ts";
import { edgeSettings, KAMAILIO, startSipEdge } from "../scripts/sip-edge.mjs";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
// SIP_EDGE_RATES / SIP_EDGE_WORKER_RATES (comma lists) replace the rates tried.
const rates = (name: string, fallback: number[]) =>
  process.env[name] ? (process.env[name] ?? "").split(",").map(Number) : fallback;
const RATES = rates("SIP_EDGE_RATES", SMOKE ? [10, 20] : [25, 50, 100, 200, 300, 400, 600, 800]);
const STEP_SECONDS = SMOKE ? 3 : 6;
const HOLD_MS = 1000;
const KILL_RATE = SMOKE ? 10 : 40;
const KILL_SECONDS = SMOKE ? 6 : 12;
const KILL_AT_MS = SMOKE ? 2000 : 4000;
const KILL_HOLD_MS = 3000;
const WORKER_RATES = rates("SIP_EDGE_WORKER_RATES", SMOKE ? [2, 4] : [4, 8, 16, 32, 48, 64, 96]);
const WORKER_STEP_SECONDS = SMOKE ? 4 : 6;
const WORKER_HOLD_MS = 2000;
const CALLER = "127.0.0.2";
const bench = "sip-edge-kamailio";

if (!existsSync(KAMAILIO) || !haveSipp) {
  console.log(
    `skipped: ${!haveSipp ? SIPP_MISSING : "kamailio is not installed (node scripts/ensure-sip-edge.mjs)"}`,
  );
  process.exit(0);
}

type Target = { child: ChildProcess; port: number; answered: number; ended: number };

async function startTarget(): Promise<Target> {
  const port = await freeUdpPort();
  const child = fork(path.join(import.meta.dirname, "sip-edge-target.ts"), [String(port), CALLER], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const target: Target = { child, port, answered: 0, ended: 0 };
  await new Promise<void>((resolve, reject) => {
    child.on("message", (message: { type: string }) => {
      if (message.type === "ready") resolve();
      else if (message.type === "answered") target.answered++;
      else if (message.type === "ended") target.ended++;
    });
    child.once("exit", () => reject(new Error(`the target on ${port} exited`)));
  });
  return target;
}

const targets = [await startTarget(), await startTarget()] as [Target, Target];
const runDir = mkdtempSync(path.join(tmpdir(), "sip-edge-bench-"));
const settings = edgeSettings({
  SIP_EDGE_HOST: "127.0.0.1",
  SIP_EDGE_PORT: String(await freeUdpPort()),
  SIP_EDGE_TARGETS: targets.map((t) => `127.0.0.1:${t.port}`).join(","),
  SIP_EDGE_PING_SECONDS: "1",
  SIP_EDGE_TARGET_TIMEOUT_MS: "1000",
  SIP_EDGE_RUN_DIR: runDir,
  SIP_TRUST_LOOPBACK: "false",
  SIP_EDGE_ALLOW: CALLER,
  // One caller (a trunk) sends every call: three requests each (INVITE, ACK, BYE) at up to 300 calls/s.
  SIP_SOURCE_RATE: "5000",
});
const edge = await startSipEdge(settings, { rows: [] });

/** CPU seconds used so far by kamailio (its main process and the children it forked). */
function edgeCpuSeconds(): number {
  const pid = edge.pid ?? 0;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(entry) !== pid && Number(fields[1]) !== pid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / 100;
}

/** sipp's cumulative Successful / Failed call counts from its final statistics. */
function counts(output: string) {
  const read = (name: string) =>
    Number(new RegExp(`${name}\\s*\\|\\s*\\d+\\s*\\|\\s*(\\d+)`).exec(output)?.[1] ?? Number.NaN);
  return { successful: read("Successful call"), failed: read("Failed call") };
}

const dial = (rate: number, calls: number, holdMs: number, port = settings.port, service = "1") =>
  runSipp({
    port,
    localIp: CALLER,
    scenario: "uac-proxied.xml",
    service,
    calls,
    rate,
    limit: Math.max(10, Math.ceil(rate * (holdMs / 1000 + 2))),
    durationMs: holdMs,
    timeoutMs: 120_000,
    // A 180 relayed after the 200 (UDP, two edge processes) is ignored; a call missing an answer fails in 10 s.
    extra: [
      ...["-default_behaviors", "all,-abortunexp", "-recv_timeout", "10000"],
      ...["-max_recv_loops", "10000", "-max_sched_loops", "10000"],
    ],
  });

const reset = () => {
  for (const target of targets) {
    target.answered = 0;
    target.ended = 0;
  }
};

// 1. Rising rate.
let held = 0;
let heldCpu = 0;
for (const rate of RATES) {
  const calls = rate * STEP_SECONDS;
  reset();
  const cpuBefore = edgeCpuSeconds();
  const started = performance.now();
  const run = await dial(rate, calls, HOLD_MS);
  const seconds = (performance.now() - started) / 1000;
  const cpu = ((edgeCpuSeconds() - cpuBefore) / seconds) * 100;
  const { successful, failed } = counts(run.output);
  const [a, b] = targets;
  const ok =
    run.code === 0 &&
    successful === calls &&
    a.answered + b.answered === calls &&
    a.answered > 0 &&
    b.answered > 0;
  console.log(
    `${rate} calls/s through the edge: ${successful} of ${calls} calls completed (${failed} failed), answered ${a.answered} + ${b.answered} by the two targets, sipp exit ${run.code}, edge CPU ${cpu.toFixed(1)}% of one core`,
  );
  if (!ok) {
    console.log(run.output.split("\n").slice(-30).join("\n"));
    const complaints = edge
      .output()
      .split("\n")
      .filter((line) => /ERROR|WARNING|CRITICAL/.test(line));
    console.log(
      `the edge's complaints (last 15 of ${complaints.length}):\n${complaints.slice(-15).join("\n")}`,
    );
    break;
  }
  held = rate;
  heldCpu = cpu;
}
console.log(
  `calls per second set up through the edge with 0 failures: ${held} (rates ${RATES.join(", ")}, up to the first that failed)`,
);

// 2. kill -9 one target mid-run.
reset();
const killCalls = KILL_RATE * KILL_SECONDS;
const [kept, killed] = targets;
const running = dial(KILL_RATE, killCalls, KILL_HOLD_MS);
await new Promise((resolve) => setTimeout(resolve, KILL_AT_MS));
const onKilled = killed.answered - killed.ended;
const answeredBeforeKill = kept.answered + killed.answered;
killed.child.kill("SIGKILL");
const killedAt = performance.now();
let markedDownMs = Number.NaN;
const downPattern = new RegExp(`sip:127\\.0\\.0\\.1:${killed.port}\\s+FLAGS: I`);
while (performance.now() - killedAt < 15_000) {
  if (downPattern.test(edge.command("dispatcher.list"))) {
    markedDownMs = performance.now() - killedAt;
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const run = await running;
const { successful, failed } = counts(run.output);
const answered = kept.answered + killed.answered;
const lost = killCalls - answered;
console.log(
  `kill -9 of one target ${KILL_AT_MS / 1000} s into ${killCalls} calls at ${KILL_RATE}/s (held ${KILL_HOLD_MS / 1000} s): ${answeredBeforeKill} answered before it, ${onKilled} of them on the killed target; after it ${answered - answeredBeforeKill} more, all by the other; new calls lost: ${lost}; sipp: ${successful} completed, ${failed} failed (the killed target's calls, whose BYE found no one); marked down after ${(markedDownMs / 1000).toFixed(1)} s`,
);

// 3. Voice workers behind the edge: the first edge and targets are stopped first.
await edge.stop();
kept.child.kill("SIGTERM");
await new Promise((resolve) => kept.child.once("exit", resolve));

const standIn = spawn(
  process.execPath,
  ["--import", "tsx", path.join(import.meta.dirname, "speech-stand-in.ts")],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const speechUrl = await new Promise<string>((resolve) =>
  standIn.stdout.once("data", (data: Buffer) => resolve(data.toString().trim())),
);
const workerBase = await freeUdpPort();
const app = await buildApp(
  testConfig({
    DEMO_DATA: "true",
    HOST: "127.0.0.1",
    VOICE_WORKERS: "2",
    VOICE_WORKER_SIP_PORT: String(workerBase),
    SIP_TRUST_LOOPBACK: "false",
    SIP_TRUSTED_EDGE: "127.0.0.1",
    STT_PROVIDER: "openai",
    TTS_PROVIDER: "openai",
    OPENAI_SPEECH_API_KEY: "bench",
    OPENAI_SPEECH_URL: speechUrl,
  }),
  { database: await openPglite() },
);
const demo = await demoFrontDesk(app);
await testClient(app)(demo.ownerToken, demo.orgId).call(api.addSipIpWhitelist, {
  body: { ip: CALLER, label: "bench" },
});
const workerState = () => app.context.voiceWorkers?.state() ?? [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
for (let i = 0; i < 600; i++) {
  if (workerState().length === 2 && workerState().every((w) => w.state === "up")) break;
  await sleep(100);
}
const workerRunDir = mkdtempSync(path.join(tmpdir(), "sip-edge-bench-workers-"));
const workerSettings = edgeSettings({
  SIP_EDGE_HOST: "127.0.0.1",
  SIP_EDGE_PORT: String(await freeUdpPort()),
  SIP_EDGE_TARGETS: `127.0.0.1:${workerBase},127.0.0.1:${workerBase + 1}`,
  SIP_EDGE_PING_SECONDS: "1",
  SIP_EDGE_TARGET_TIMEOUT_MS: "1000",
  SIP_EDGE_RUN_DIR: workerRunDir,
  SIP_TRUST_LOOPBACK: "false",
  SIP_SOURCE_RATE: "5000",
});
const workerEdge = await startSipEdge(workerSettings, { rows: [{ orgId: demo.orgId, ip: CALLER }] });
const NUMBER = "+15035550123";

/** While `until` runs: the most calls each worker carried at once. */
async function peakCalls(until: Promise<unknown>): Promise<number[]> {
  const peak = [0, 0];
  let done = false;
  void until.finally(() => {
    done = true;
  });
  while (!done) {
    workerState().forEach((w, i) => {
      peak[i] = Math.max(peak[i] ?? 0, w.calls);
    });
    await sleep(100);
  }
  return peak;
}

let workerHeld = 0;
for (const rate of WORKER_RATES) {
  const calls = rate * WORKER_STEP_SECONDS;
  const run = dial(rate, calls, WORKER_HOLD_MS, workerSettings.port, NUMBER);
  const [result, peak] = await Promise.all([run, peakCalls(run)]);
  const { successful, failed } = counts(result.output);
  const ok = result.code === 0 && successful === calls && peak.every((n) => n > 0);
  console.log(
    `${rate} calls/s through the edge to 2 voice workers (held ${WORKER_HOLD_MS / 1000} s, hosted-speech stand-in): ${successful} of ${calls} completed (${failed} failed), at most ${peak.join(" + ")} calls at once on the workers, sipp exit ${result.code}`,
  );
  if (!ok) {
    console.log(result.output.split("\n").slice(-30).join("\n"));
    break;
  }
  workerHeld = rate;
}
console.log(`calls per second set up through the edge to 2 voice workers with 0 failures: ${workerHeld}`);

const lostRows = () =>
  app.context.database.db
    .select({ uuid: conversationLogs.uuid })
    .from(conversationLogs)
    .where(sql`${conversationLogs.data}->>'error' = ${WORKER_LOST_ERROR}`);
const workerKillRate = Math.max(2, Math.min(workerHeld, 4));
const workerKillCalls = workerKillRate * (SMOKE ? 6 : 10);
const loggedBefore = (await lostRows()).length;
const doomed = workerState()[1];
const killRun = dial(workerKillRate, workerKillCalls, KILL_HOLD_MS, workerSettings.port, NUMBER);
await sleep(KILL_AT_MS);
const onDoomed = workerState()[1]?.calls ?? 0;
process.kill(doomed?.pid ?? 0, "SIGKILL");
const killResult = await killRun;
const killCounts = counts(killResult.output);
let logged = 0;
for (let i = 0; i < 100; i++) {
  logged = (await lostRows()).length - loggedBefore;
  if (logged >= killCounts.failed) break;
  await sleep(200);
}
const workerLost = workerKillCalls - killCounts.successful - logged;
console.log(
  `kill -9 of one voice worker ${KILL_AT_MS / 1000} s into ${workerKillCalls} calls at ${workerKillRate}/s (held ${KILL_HOLD_MS / 1000} s): it carried ${onDoomed}; sipp: ${killCounts.successful} completed, ${killCounts.failed} failed; ${logged} calls logged as failed ("${WORKER_LOST_ERROR}"), once each; new calls lost: ${workerLost}; restarts of the killed worker: ${workerState()[1]?.restarts ?? 0}`,
);

reportFigure({
  bench,
  name: "calls per second set up, 0 failures",
  value: held,
  unit: "calls/s",
  better: "higher",
});
reportFigure({
  bench,
  name: "edge CPU at that rate",
  value: heldCpu,
  unit: "% of one core",
  better: "lower",
});
reportFigure({
  bench,
  name: "new calls lost, one target killed",
  value: lost,
  unit: "calls",
  target: 0,
  better: "lower",
});
reportFigure({
  bench,
  name: "calls ended with the killed target",
  value: onKilled,
  unit: "calls",
  better: "lower",
});
reportFigure({
  bench,
  name: "killed target marked down after",
  value: markedDownMs,
  unit: "ms",
  better: "lower",
});

reportFigure({
  bench,
  name: "calls per second set up to 2 voice workers, 0 failures",
  value: workerHeld,
  unit: "calls/s",
  better: "higher",
});
reportFigure({
  bench,
  name: "new calls lost, one voice worker killed",
  value: workerLost,
  unit: "calls",
  target: 0,
  better: "lower",
});
reportFigure({
  bench,
  name: "calls logged failed with the killed worker",
  value: logged,
  unit: "calls",
  better: "lower",
});

await workerEdge.stop();
await app.close();
standIn.kill("SIGTERM");
rmSync(runDir, { recursive: true, force: true });
rmSync(workerRunDir, { recursive: true, force: true });
if (held === 0 || lost > 0 || workerHeld === 0 || workerLost > 0) process.exit(1);
