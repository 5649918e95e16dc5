/**
 * The sandbox carrier's simulated callee: the far end of an outbound call placed through the sandbox. It
 * answers as a person ("Hello?" synthesised with the server's TTS, then it listens, and hangs up once the
 * agent has spoken and gone quiet) or as voicemail (a greeting, a 1 kHz beep, then it records what the agent
 * says until it goes quiet). Its audio runs in real time, 20 ms a frame, like a phone line.
 */

import { FRAME_SAMPLES, SAMPLE_RATE } from "../../audio/audio-format.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import { type CallLeg, simulatedLine } from "../voice/index.ts";

export type CalleeBehaviour = "person" | "voicemail" | "no_answer" | "busy" | "ivr";

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
 * The sandbox's two-level phone menu (behaviour `ivr`): each node's prompt, and where each key leads. A
 * node without keys is the end: it says its prompt and hangs up.
 */
export const SANDBOX_IVR: Record<string, { says: string; keys: Record<string, string> }> = {
  main: {
    says: "Welcome to Acme. For sales, press 1. For support, press 2.",
    keys: { "1": "sales", "2": "support" },
  },
  sales: {
    says: "Sales. For new orders, press 3. For billing, press 4.",
    keys: { "3": "orders", "4": "billing" },
  },
  support: { says: "Support. For a technician, press 5.", keys: { "5": "technician" } },
  orders: { says: "You have reached new orders. Please hold for the next agent. Goodbye.", keys: {} },
  billing: { says: "You have reached billing. Goodbye.", keys: {} },
  technician: { says: "You have reached a technician. Goodbye.", keys: {} },
};

/** What the menu says to a key it has no branch for. */
const INVALID_KEY = "Sorry, that is not an option.";

/** What each sandbox menu call went through (keys heard, nodes reached), newest last, the last 20. */
export const sandboxIvrRuns: { to: string; keys: string[]; path: string[] }[] = [];

/**
 * Answers a sandbox call as the two-level menu: it says each node's prompt, follows the keys pressed (RFC
 * 4733 on a real line; here the simulated line's), says "Sorry, that is not an option." to others, and hangs
 * up 1.5 s after an end node's prompt, or after 20 s without a key. The line tells each prompt's words.
 */
async function answerAsIvr(options: { tts: TtsProvider; from: string; to: string }): Promise<SandboxCallee> {
  const prompts = new Map<string, Int16Array[]>();
  await Promise.all(
    [...Object.entries(SANDBOX_IVR), ["invalid", { says: INVALID_KEY }] as const].map(
      async ([node, { says }]) =>
        prompts.set(node, [...silentFrames(300), ...(await synthesize(options.tts, says))]),
    ),
  );
  const run = { to: options.to, keys: [] as string[], path: ["main"] };
  sandboxIvrRuns.push(run);
  if (sandboxIvrRuns.length > 20) sandboxIvrRuns.shift();
  const stats: CalleeStats = { agentFramesHeard: 0, framesAfterBeep: 0, spokeFrames: 0, hungUpBy: null };
  const silence = new Int16Array(FRAME_SAMPLES);
  let node = "main";
  let script = prompts.get("main") ?? [];
  /** The words of the prompt about to play (the line tells them as it starts). */
  let saying: string | null = SANDBOX_IVR.main?.says ?? null;
  let tick = 0;
  let lastKeyAt = Date.now();
  const leg = simulatedLine({
    idPrefix: "sandbox-ivr",
    from: options.from,
    to: options.to,
    tellsWords: true,
    onEnd: (by) => {
      stats.hungUpBy = by === "far-end" ? "callee" : "agent";
    },
    onDigit: (digit) => {
      run.keys.push(digit);
      lastKeyAt = Date.now();
      const next = SANDBOX_IVR[node]?.keys[digit];
      if (next) {
        node = next;
        run.path.push(next);
      }
      script = prompts.get(next ?? "invalid") ?? [];
      saying = next ? (SANDBOX_IVR[next]?.says ?? null) : INVALID_KEY;
      tick = 0;
    },
    step: (heard) => {
      if (heard) stats.agentFramesHeard++;
      if (saying !== null) {
        leg.said(saying);
        saying = null;
      }
      const out = script[tick] ?? silence;
      if (tick < script.length) stats.spokeFrames++;
      tick++;
      const finished = tick >= script.length;
      const end = Object.keys(SANDBOX_IVR[node]?.keys ?? {}).length === 0;
      // An end node hangs up 1.5 s after its prompt (the caller hears it out).
      if (finished && end && tick >= script.length + 75) return "hang-up";
      if (Date.now() - lastKeyAt > 20_000 && finished) return "hang-up";
      return out;
    },
  });
  return { leg, stats };
}

/**
 * Answers a sandbox call as `behaviour` (person or voicemail) and gives the agent's side of it as a
 * CallLeg. `quietMs`: how long the agent may be quiet after speaking before the callee hangs up.
 */
export async function answerAsSandboxCallee(options: {
  tts: TtsProvider;
  behaviour: "person" | "voicemail" | "ivr";
  says: string | null;
  from: string;
  to: string;
  quietMs?: number;
  maxMs?: number;
}): Promise<SandboxCallee> {
  if (options.behaviour === "ivr") return answerAsIvr(options);
  const quietMs = options.quietMs ?? 1500;
  const maxMs = options.maxMs ?? 90_000;
  let saying: string | null =
    options.says || (options.behaviour === "person" ? DEFAULT_PERSON_SAYS : DEFAULT_VOICEMAIL_SAYS);
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
    tellsWords: true,
    onEnd: (by) => {
      stats.hungUpBy = by === "far-end" ? "callee" : "agent";
    },
    step: (heard, agentQueued) => {
      if (saying !== null) {
        leg.said(saying);
        saying = null;
      }
      const out = script[tick] ?? silence;
      if (tick < script.length) stats.spokeFrames++;
      tick++;
      if (heard) {
        stats.agentFramesHeard++;
        if (beepEndsAt !== null && tick > beepEndsAt) stats.framesAfterBeep++;
        // Silence on the line (a bridged caller's quiet RTP) is not someone talking.
        if (heard.some((sample) => Math.abs(sample) > 300)) lastAgentFrameAt = Date.now();
      }
      const now = Date.now();
      const doneTalking = tick >= script.length;
      // Quiet: nothing loud heard for quietMs and nothing more queued (a bridged caller's line always has a
      // few frames of silence in flight: after 2 s more those count as quiet too).
      const quiet = lastAgentFrameAt !== null ? now - lastAgentFrameAt : 0;
      if (
        doneTalking &&
        lastAgentFrameAt !== null &&
        quiet >= quietMs &&
        (agentQueued === 0 || quiet >= quietMs + 2000)
      )
        return "hang-up";
      if (now - started >= maxMs) return "hang-up";
      return out;
    },
  });
  return { leg, stats };
}
