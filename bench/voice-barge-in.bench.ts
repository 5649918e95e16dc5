// Barge-in (issue 16): from the caller's speech onset over the agent's answer to the agent's silence, over
// a SIP call on loopback (the SIP user agent of apps/server/test/sip-test-ua.ts, L16/16000, real-time RTP),
// taken at the caller's side: onset = sending the first packet of the interruption the pipeline's VAD calls
// speech; silence = the end of the last voiced agent packet received before the agent stays quiet for
// 300 ms. Offline providers, sandbox model, the demo's Front Desk agent, default call settings.
// N = 20 interruptions (BENCH_SIZE=smoke: 4). Target: p95 <= 150 ms.

import { eq } from "drizzle-orm";
import { buildApp } from "../apps/server/src/app.ts";
import { FRAME_MS } from "../apps/server/src/audio/audio-format.ts";
import { rms, toFrames } from "../apps/server/src/audio/pcm.ts";
import { openPglite } from "../apps/server/src/db/client.ts";
import { accounts } from "../apps/server/src/db/schema/index.ts";
import type { CallSession } from "../apps/server/src/modules/voice/call-session.ts";
import { startSipServer } from "../apps/server/src/modules/voice/sip/sip-server.ts";
import { webrtcVad } from "../apps/server/src/providers/vad/webrtc-vad.ts";
import { testConfig } from "../apps/server/test/helpers.ts";
import { dialSip } from "../apps/server/test/sip-test-ua.ts";
import { silence, spokenFixture } from "../apps/server/test/voice-fixtures.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const N = SMOKE ? 4 : 20;
const VOICED = 300;
const QUIET_MS = 300;

const app = await buildApp(testConfig({ DEMO_DATA: "true" }), { database: await openPglite() });
const rows = await app.context.database.db.select().from(accounts).where(eq(accounts.accountType, "agent"));
const agent = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
if (!agent) throw new Error("demo Front Desk agent missing");
const question = toFrames(await spokenFixture("Do you see children?"));
const vad = await webrtcVad().createStream();
const onsetFrame = question.findIndex((frame) => vad.isSpeech(frame));
vad.close();

let session: CallSession | null = null;
const sip = await startSipServer({
  host: "127.0.0.1",
  port: 0,
  onCall: (leg) => {
    session = app.voice.startCallSession(leg, {
      agentAccountId: agent.id,
      settings: { idlePromptSeconds: 0 },
    });
    return undefined;
  },
});
const call = await dialSip({ port: sip.port, user: String(agent.id) });
const heard: { at: number; voiced: boolean }[] = [];
call.onFrame((frame, at) => heard.push({ at, voiced: rms(frame) > VOICED }));

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The first voiced agent frame after `from` (waits for it). */
async function agentSpeaks(from: number, timeoutMs = 30_000): Promise<number> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const first = heard.find((h) => h.at > from && h.voiced);
    if (first) return first.at;
    if (performance.now() > end) throw new Error("the agent did not speak");
    await wait(20);
  }
}
/** When the agent went quiet after `from`: the end of its last voiced frame before QUIET_MS of quiet. */
async function agentQuiet(from: number, timeoutMs = 30_000): Promise<number> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const voiced = heard.filter((h) => h.at >= from && h.voiced);
    const last = voiced.at(-1)?.at ?? from;
    if (performance.now() - last > QUIET_MS) return last + FRAME_MS;
    if (performance.now() > end) throw new Error("the agent did not stop");
    await wait(20);
  }
}

await agentQuiet(await agentSpeaks(0)); // the greeting
const results: number[] = [];
const start = call.say([...question, ...toFrames(silence(1500))]); // the first question
await agentSpeaks(call.sentAt(start) ?? performance.now());
for (let i = 0; i < N; i++) {
  await wait(600); // into the answer
  const first = call.say([...question, ...toFrames(silence(1500))]);
  while (call.sentAt(first + onsetFrame) === undefined) await wait(10);
  const onset = call.sentAt(first + onsetFrame) as number;
  const quiet = await agentQuiet(onset);
  results.push(quiet - onset);
  // The interruption is a question too: wait for its answer to start, then interrupt that one.
  await agentSpeaks(quiet + QUIET_MS);
}
await call.hangup();
const summary = await (session as CallSession | null)?.ended;
await sip.close();
await app.close();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const p50 = percentile(results, 50);
const p95 = percentile(results, 95);
console.log(
  `interruptions: ${results.length}${SMOKE ? " (BENCH_SIZE=smoke)" : ""}; barge-ins the pipeline counted: ${summary?.bargeIns ?? 0}`,
);
console.log(
  `speech onset -> agent silence (SIP): p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${Math.max(...results).toFixed(0)} ms`,
);
console.log(`issue target p95 <= 150 ms: ${p95 <= 150 ? "met" : "NOT met"}`);
reportFigure({
  bench: "voice-barge-in",
  name: "onset to silence p50",
  value: p50,
  unit: "ms",
  better: "lower",
});
reportFigure({
  bench: "voice-barge-in",
  name: "onset to silence p95",
  value: p95,
  unit: "ms",
  target: 150,
  better: "lower",
});
if (results.length < N) process.exit(1);
