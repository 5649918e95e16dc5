/**
 * The sandbox carrier's simulated callee: the far end of an outbound call placed through the sandbox. It
 * answers as a person ("Hello?" synthesised with the server's TTS, then it listens, and hangs up once the
 * agent has spoken and gone quiet) or as voicemail (a greeting, a 1 kHz beep, then it records what the agent
 * says until it goes quiet). Its audio runs in real time, 20 ms a frame, like a phone line.
 */
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { CallLeg } from "../voice/call-leg.ts";
import { FRAME_SAMPLES, SAMPLE_RATE } from "../voice/call-leg.ts";
import { simulatedLine } from "../voice/simulated-line.ts";

export type CalleeBehaviour = "person" | "voicemail" | "no_answer" | "busy";

export const DEFAULT_PERSON_SAYS = "Hello?";
export const DEFAULT_VOICEMAIL_SAYS =
  "Hi, you have reached the voicemail of Jordan Lee. I can not take your call right now. Please leave a message after the tone.";

/** What the callee heard and did, for tests and the call's record. */
export type CalleeStats = {
  /** Agent frames that reached the callee (its speech). */
  agentFramesHeard: number;
  /** Agent frames heard after the beep (the message left). */
  framesAfterBeep: number;
  spokeFrames: number;
  hungUpBy: "callee" | "agent" | null;
};

export type SandboxCallee = { leg: CallLeg; stats: CalleeStats };

function toFrames(chunks: Int16Array[]): Int16Array[] {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const all = new Int16Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  const frames: Int16Array[] = [];
  for (let i = 0; i < all.length; i += FRAME_SAMPLES) {
    const frame = new Int16Array(FRAME_SAMPLES);
    frame.set(all.subarray(i, Math.min(all.length, i + FRAME_SAMPLES)));
    frames.push(frame);
  }
  return frames;
}

/** A sine beep (voicemail's tone): 1 kHz, `ms` long. */
export function beepFrames(ms = 500, hz = 1000): Int16Array[] {
  const samples = Math.round((SAMPLE_RATE * ms) / 1000);
  const tone = new Int16Array(samples);
  for (let i = 0; i < samples; i++)
    tone[i] = Math.round(12_000 * Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE));
  return toFrames([tone]);
}

const silentFrames = (ms: number) =>
  Array.from({ length: Math.round(ms / 20) }, () => new Int16Array(FRAME_SAMPLES));

async function synthesize(tts: TtsProvider, text: string): Promise<Int16Array[]> {
  const chunks: Int16Array[] = [];
  for await (const chunk of tts.synthesize(text)) chunks.push(chunk);
  return toFrames(chunks);
}

/**
 * Answers a sandbox call as `behaviour` (person or voicemail) and gives the agent's side of it as a
 * CallLeg. `quietMs`: how long the agent may be quiet after speaking before the callee hangs up.
 */
export async function answerAsSandboxCallee(options: {
  tts: TtsProvider;
  behaviour: "person" | "voicemail";
  says: string | null;
  from: string;
  to: string;
  quietMs?: number;
  maxMs?: number;
}): Promise<SandboxCallee> {
  const quietMs = options.quietMs ?? 1500;
  const maxMs = options.maxMs ?? 90_000;
  const script: Int16Array[] =
    options.behaviour === "person"
      ? [...silentFrames(200), ...(await synthesize(options.tts, options.says || DEFAULT_PERSON_SAYS))]
      : [
          ...silentFrames(300),
          ...(await synthesize(options.tts, options.says || DEFAULT_VOICEMAIL_SAYS)),
          ...silentFrames(300),
          ...beepFrames(),
        ];
  const beepEndsAt = options.behaviour === "voicemail" ? script.length : null;
  const stats: CalleeStats = { agentFramesHeard: 0, framesAfterBeep: 0, spokeFrames: 0, hungUpBy: null };
  const silence = new Int16Array(FRAME_SAMPLES);
  let tick = 0;
  let lastAgentFrameAt: number | null = null;
  const started = Date.now();

  const leg = simulatedLine({
    idPrefix: "sandbox",
    from: options.from,
    to: options.to,
    onEnd: (by) => {
      stats.hungUpBy = by === "far-end" ? "callee" : "agent";
    },
    step: (heard, agentQueued) => {
      const out = script[tick] ?? silence;
      if (tick < script.length) stats.spokeFrames++;
      tick++;
      if (heard) {
        stats.agentFramesHeard++;
        if (beepEndsAt !== null && tick > beepEndsAt) stats.framesAfterBeep++;
        lastAgentFrameAt = Date.now();
      }
      const now = Date.now();
      const doneTalking = tick >= script.length;
      if (doneTalking && lastAgentFrameAt !== null && agentQueued === 0 && now - lastAgentFrameAt >= quietMs)
        return "hang-up";
      if (now - started >= maxMs) return "hang-up";
      return out;
    },
  });
  return { leg, stats };
}
