// Voice capacity with hosted speech (issue 31): N concurrent SIP calls through the whole pipeline, with a
// local stand-in for the OpenAI-compatible speech API (bench/speech-stand-in.ts: recognition answered after
// 150 ms, synthesis streamed at real time) so only the media plane and the agent turn are measured. The
// callers are bench/independent-caller.ts (its own SIP and RTP code, in a process of its own): each waits for
// the greeting, then asks QUESTIONS questions. Figures, as the caller sees them: receive jitter p99 (RFC 3550
// transit difference of consecutive packets), frames lost, turn latency p95 (last voiced packet sent → first
// voiced answer packet), greeting delay p95; and the inbox list's p95 (GET /api/v1/conversations, one request
// every 100 ms, idle and during the calls). Targets: jitter p99 ≤ 30 ms, 0 lost, turn p95 ≤ 800 ms.
// Steps: VOICE_CALLS="16,32,50" (default; BENCH_SIZE=smoke: 4).
// VOICE_WORKERS=n: the deployed shape instead: the server listens for HTTP and SIP, relays each call to one
// of n voice worker processes, and the inbox list is asked over HTTP (fetch), so it measures the API
// process beside the calls; BENCH_DATABASE_URL puts it on a PostgreSQL server (a database of its own).
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, gte } from "drizzle-orm";
import { buildApp } from "../apps/server/src/app.ts";
import { accounts, conversationLogs } from "../apps/server/src/db/schema/index.ts";
import { type SipCallLeg, startSipServer } from "../apps/server/src/modules/voice/sip/sip-server.ts";
import { freeUdpPort } from "../apps/server/src/modules/voice/sip/sipp.ts";
import { testConfig } from "../apps/server/test/helpers.ts";
import { demoFrontDesk, silence, spokenFixture } from "../apps/server/test/voice-fixtures.ts";
import { benchDatabase } from "./postgres-server.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const STEPS = (process.env.VOICE_CALLS ?? (SMOKE ? "4" : "16,32,50")).split(",").map(Number);
const QUESTIONS = ["When are you open?", "Do you see children?"];
const here = import.meta.dirname;

function startChild(file: string, args: string[]) {
  return spawn(process.execPath, ["--import", "tsx", path.join(here, file), ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
}

const standIn = startChild("speech-stand-in.ts", [QUESTIONS[0] as string]);
const speechUrl = await new Promise<string>((resolve) =>
  standIn.stdout.once("data", (data: Buffer) => resolve(data.toString().trim())),
);

const WORKERS = Number(process.env.VOICE_WORKERS ?? 0);
const { database, drop: dropDatabase } = await benchDatabase("sb_bench_hosted");
const workerSipPort = WORKERS > 0 ? await freeUdpPort() : 0;
const app = await buildApp(
  testConfig({
    DEMO_DATA: "true",
    STT_PROVIDER: "openai",
    TTS_PROVIDER: "openai",
    OPENAI_SPEECH_API_KEY: "bench",
    OPENAI_SPEECH_URL: speechUrl,
    ...(WORKERS > 0
      ? { VOICE_WORKERS: String(WORKERS), SIP_PORT: String(workerSipPort), HOST: "127.0.0.1" }
      : {}),
  }),
  { database },
);
const { agent, orgId, ownerToken } = await demoFrontDesk(app);
let httpBase = "";
if (WORKERS > 0) {
  // The workers read the agent's settings from the database: no idle prompts, as below.
  await app.context.database.db
    .update(accounts)
    .set({
      details: { ...(agent.details as Record<string, unknown>), callSettings: { idlePromptSeconds: 0 } },
    })
    .where(eq(accounts.id, agent.id));
  await app.listen({ port: 0, host: "127.0.0.1" });
  httpBase = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const deadline = Date.now() + 120_000;
  while (!app.context.voiceWorkers?.state().every((worker) => worker.state === "up")) {
    if (Date.now() > deadline) throw new Error("the voice workers did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const dir = await mkdtemp(path.join(tmpdir(), "sb-hosted-bench-"));
const questionFiles = await Promise.all(
  QUESTIONS.map(async (text, i) => {
    const speech = await spokenFixture(text);
    const padded = new Int16Array(speech.length + silence(200).length);
    padded.set(speech);
    const file = path.join(dir, `q${i}.raw`);
    await writeFile(file, Buffer.from(padded.buffer));
    return file;
  }),
);

const sip =
  WORKERS > 0
    ? null
    : await startSipServer({
        host: "127.0.0.1",
        port: 0,
        onCall: (leg: SipCallLeg) => {
          app.voice.startCallSession(leg, { agentAccountId: agent.id, settings: { idlePromptSeconds: 0 } });
          return undefined;
        },
      });
const sipPort = sip?.port ?? workerSipPort;

/** The inbox list, one request every 100 ms until `stop` resolves: its latencies. */
async function probeInbox(stop: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  void stop.then(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    const url = `/api/v1/conversations?token=${ownerToken}&targetAccountId=${orgId}`;
    const status = httpBase
      ? await fetch(`${httpBase}${url}`).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        })
      : (await app.inject({ method: "GET", url })).statusCode;
    if (status !== 200) throw new Error(`inbox list answered ${status}`);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return times;
}
const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? Number.NaN;

type CallerResult = Record<
  | "calls"
  | "connected"
  | "asked"
  | "answered"
  | "turnP50"
  | "turnP95"
  | "greetingP95"
  | "jitterP50"
  | "jitterP99"
  | "jitterMax"
  | "maxGap"
  | "lost"
  | "received",
  number
>;

function runCallers(calls: number): Promise<CallerResult> {
  const child = startChild("independent-caller.ts", [
    JSON.stringify({ port: sipPort, user: String(agent.id), calls, questions: questionFiles }),
  ]);
  let out = "";
  child.stdout.on("data", (data: Buffer) => {
    out += data.toString();
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}"))
        : reject(new Error(`caller ${code}`)),
    ),
  );
}

const idle = await probeInbox(new Promise((resolve) => setTimeout(resolve, 3000)));
console.log(
  `inbox list idle p95 ${p95(idle).toFixed(1)} ms; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
await runCallers(1); // warm-up, not measured
console.log(
  WORKERS > 0
    ? `calls in ${WORKERS} voice worker processes, relayed from the API's SIP port; database ${app.context.database.kind}`
    : `calls in the server's process; database ${app.context.database.kind}`,
);
type TurnStages = Record<
  "endpointMs" | "recognisedMs" | "firstTokenMs" | "firstAudioMs" | "answerMs",
  number | null
>;

/**
 * Where the server's turns of a step spent their time (the calls' log rows, `turnTimings`): each stage's p50
 * and p95 from the caller's last voiced frame, and the three slowest turns taken apart.
 */
async function turnStages(since: Date): Promise<string> {
  const rows = await app.context.database.db
    .select({ data: conversationLogs.data })
    .from(conversationLogs)
    .where(and(eq(conversationLogs.agentId, agent.id), gte(conversationLogs.timestamp, since)));
  const turns = rows.flatMap((row) => (row.data as { turnTimings?: TurnStages[] }).turnTimings ?? []);
  const stages = ["endpointMs", "recognisedMs", "firstTokenMs", "firstAudioMs", "answerMs"] as const;
  const of = (stage: (typeof stages)[number]) =>
    turns.map((turn) => turn[stage]).filter((value): value is number => value !== null);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const spread = stages.map((stage) => `${stage.replace("Ms", "")} ${median(of(stage))}/${p95(of(stage))}`);
  const slowest = [...turns]
    .filter((turn) => turn.answerMs !== null)
    .sort((a, b) => (b.answerMs ?? 0) - (a.answerMs ?? 0))
    .slice(0, 3)
    .map((turn) => stages.map((stage) => turn[stage] ?? "-").join("/"));
  return `server turn stages p50/p95 ms (${turns.length} turns): ${spread.join(", ")}; slowest (endpoint/recognised/token/audio/answer): ${slowest.join("; ")}`;
}

for (const calls of STEPS) {
  const stepStarted = new Date();
  const result = runCallers(calls);
  const inbox = await probeInbox(result.catch(() => {}));
  const r = await result;
  const ok = r.answered === r.asked && r.jitterP99 <= 30 && r.lost === 0 && r.turnP95 <= 800;
  console.log(
    `${String(calls).padStart(3)} calls: connected ${r.connected}, answered ${r.answered}/${r.asked}, turn p50 ${r.turnP50.toFixed(0)} ms p95 ${r.turnP95.toFixed(0)} ms, greeting p95 ${r.greetingP95.toFixed(0)} ms; ` +
      `receive jitter p50 ${r.jitterP50.toFixed(1)} p99 ${r.jitterP99.toFixed(1)} max ${r.jitterMax.toFixed(0)} ms, longest gap ${r.maxGap.toFixed(0)} ms, lost ${r.lost} of ${r.received + r.lost}; ` +
      `inbox list p95 ${p95(inbox).toFixed(1)} ms; load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")} — ${ok ? "ok" : "NOT ok"}`,
  );
  console.log(`     ${await turnStages(stepStarted)}`);
  const figure = (
    name: string,
    value: number,
    unit: string,
    target: number | null,
    better: "higher" | "lower",
  ) =>
    reportFigure({
      bench: "voice-hosted-capacity",
      name: `${calls} calls: ${name}`,
      value,
      unit,
      target,
      better,
    });
  figure("answered", r.asked ? r.answered / r.asked : 0, "share", 1, "higher");
  figure("turn p95", r.turnP95, "ms", 800, "lower");
  figure("receive jitter p99", r.jitterP99, "ms", 30, "lower");
  figure("frames lost", r.lost, "frames", 0, "lower");
  figure("inbox list p95", p95(inbox), "ms", null, "lower");
}
await sip?.close();
await app.close();
standIn.kill();
await dropDatabase();
