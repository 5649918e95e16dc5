// Voice turn latency (issue 16): from the caller's last voiced frame to the first frame of the agent's
// spoken answer, over a SIP call on loopback — a SIP user agent (apps/server/test/sip-test-ua.ts) dials the
// server's SIP server with L16/16000 and sends festival-spoken questions as real-time RTP; the time is taken
// at the caller's side, from sending the last packet of a question the pipeline's VAD calls speech to
// receiving the first voiced packet of the answer (jitter buffer, pacing and RTP both ways included). Offline providers (WebRTC VAD,
// pocketsphinx, espeak-ng), the sandbox model, the demo's Front Desk agent, default call settings
// (endpointing included). Each stage's share comes from the pipeline's own timings: endpoint wait (last
// voiced frame heard -> turn ended; with the quick turn end this includes the early recognition), STT final
// (-> text), model first token, TTS first audio, and the rest (to the leg, pacing, RTP).
// N = 30 turns (BENCH_SIZE=smoke: 6). Target: p50 <= 400 ms, p95 <= 700 ms. `QUICK_TURN_MS=0` measures
// without the quick turn end (the fixed 500 ms silence alone).

import { eq } from "drizzle-orm";
import { buildApp } from "../apps/server/src/app.ts";
import { rms, toFrames } from "../apps/server/src/audio/pcm.ts";
import { openPglite } from "../apps/server/src/db/client.ts";
import { accounts } from "../apps/server/src/db/schema/index.ts";
import type { CallSession, TurnTiming } from "../apps/server/src/modules/voice/call-session.ts";
import { startSipServer } from "../apps/server/src/modules/voice/sip/sip-server.ts";
import { webrtcVad } from "../apps/server/src/providers/vad/webrtc-vad.ts";
import { testConfig } from "../apps/server/test/helpers.ts";
import { dialSip } from "../apps/server/test/sip-test-ua.ts";
import { silence, spokenFixture } from "../apps/server/test/voice-fixtures.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const N = SMOKE ? 6 : 30;
const QUICK =
  process.env.QUICK_TURN_MS === undefined ? {} : { quickTurnSilenceMs: Number(process.env.QUICK_TURN_MS) };
const QUESTIONS = ["Do you see children?", "When are you open?", "How much does whitening cost?"];
const VOICED = 300;

const app = await buildApp(testConfig({ DEMO_DATA: "true" }), { database: await openPglite() });
const rows = await app.context.database.db.select().from(accounts).where(eq(accounts.accountType, "agent"));
const agent = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
if (!agent) throw new Error("demo Front Desk agent missing");
const questions = await Promise.all(QUESTIONS.map((q) => spokenFixture(q)));

let session: CallSession | null = null;
const sip = await startSipServer({
  host: "127.0.0.1",
  port: 0,
  onCall: (leg) => {
    session = app.voice.startCallSession(leg, {
      agentAccountId: agent.id,
      settings: { idlePromptSeconds: 0, ...QUICK },
    });
    return undefined;
  },
});
const call = await dialSip({ port: sip.port, user: String(agent.id) });
const heard: { at: number; voiced: boolean }[] = [];
call.onFrame((frame, at) => heard.push({ at, voiced: rms(frame) > VOICED }));

/** Resolves once the agent has spoken (after `from`) and then been quiet for `quietMs`. */
async function agentDone(from: number, quietMs = 500, timeoutMs = 30_000) {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const spoken = heard.filter((h) => h.at > from && h.voiced);
    const last = spoken.at(-1);
    if (last && performance.now() - last.at > quietMs) return;
    if (performance.now() > end) throw new Error("the agent did not answer");
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

await agentDone(0, 600); // the greeting
const endToEnd: number[] = [];
for (let i = 0; i < N; i++) {
  const audio = questions[i % questions.length] as Int16Array;
  const frames = toFrames(audio);
  // The last frame the pipeline's own VAD calls speech (what "the end of the caller's speech" means).
  const vad = await webrtcVad().createStream();
  const decisions = frames.map((frame) => vad.isSpeech(frame));
  vad.close();
  const lastVoiced = decisions.lastIndexOf(true);
  const first = call.say([...frames, ...toFrames(silence(1500))]);
  // Wait for the question to be sent, then for the answer.
  while (call.sentAt(first + lastVoiced) === undefined) await new Promise((r) => setTimeout(r, 20));
  const endedAt = call.sentAt(first + lastVoiced) as number;
  await agentDone(endedAt);
  const answer = heard.find((h) => h.at > endedAt && h.voiced);
  if (answer) endToEnd.push(answer.at - endedAt);
}
await call.hangup();
const summary = await (session as CallSession | null)?.ended;
await sip.close();
await app.close();

const turns = (summary?.turns ?? []).filter(
  (t): t is TurnTiming & { firstFrameAt: number } => t.firstFrameAt !== null,
);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const stat = (name: string, values: number[]) =>
  console.log(
    `${name.padEnd(30)} p50 ${percentile(values, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(values, 95).toFixed(0).padStart(5)} ms`,
  );
console.log(
  `turns answered: ${endToEnd.length} of ${N}${SMOKE ? " (BENCH_SIZE=smoke)" : ""}; quick turn end: ${
    QUICK.quickTurnSilenceMs === 0 ? "off" : "on"
  }; recognised: ${[...new Set(turns.map((t) => t.text))].join(" | ")}`,
);
stat("last voice -> 1st answer (SIP)", endToEnd);
stat(
  "  endpoint wait",
  turns.map((t) => t.endpointAt - t.lastVoicedAt),
);
stat(
  "  STT final",
  turns.map((t) => t.sttAt - t.endpointAt),
);
stat(
  "  model first token",
  turns.map((t) => (t.firstTokenAt ?? t.sttAt) - t.sttAt),
);
stat(
  "  TTS first audio",
  turns.map((t) => (t.firstAudioAt ?? t.firstFrameAt) - (t.firstTokenAt ?? t.sttAt)),
);
stat(
  "  to the leg",
  turns.map((t) => t.firstFrameAt - (t.firstAudioAt ?? t.firstFrameAt)),
);
const pipeline = turns.map((t) => t.firstFrameAt - t.lastVoicedAt);
stat("  (pipeline: voice -> leg)", pipeline);
const p50 = percentile(endToEnd, 50);
const p95 = percentile(endToEnd, 95);
console.log(
  `transport share (SIP end to end - pipeline) p50: ${(p50 - percentile(pipeline, 50)).toFixed(0)} ms`,
);
console.log(`issue target p50 <= 400 ms, p95 <= 700 ms: ${p50 <= 400 && p95 <= 700 ? "met" : "NOT met"}`);
const bench = "voice-latency";
reportFigure({ bench, name: "turn latency p50", value: p50, unit: "ms", target: 400, better: "lower" });
reportFigure({ bench, name: "turn latency p95", value: p95, unit: "ms", target: 700, better: "lower" });
reportFigure({ bench, name: "pipeline p50", value: percentile(pipeline, 50), unit: "ms", better: "lower" });
reportFigure({
  bench,
  name: "turns answered",
  value: endToEnd.length / N,
  unit: "share",
  target: 0.8,
  better: "higher",
});
if (endToEnd.length < N * 0.8) {
  console.error("too few turns answered");
  process.exit(1);
}
