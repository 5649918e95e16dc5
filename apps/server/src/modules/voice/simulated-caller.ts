/**
 * A simulated caller: a call leg whose far end is a person reading lines. It waits for the agent to speak
 * and go quiet, says its next line (synthesised with the server's TTS), and so on; after its last line it
 * hangs up once the agent has answered. Audio runs in real time, 20 ms a frame, like a phone line, so the
 * pipeline hears it exactly as it hears a caller: the demo's calls are made with it.
 */

import { FRAME_SAMPLES } from "../../audio/audio-format.ts";
import { createFramer } from "../../audio/pcm.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { CallLeg } from "./call-leg.ts";
import type { CallerMind } from "./persona-caller.ts";
import { simulatedLine } from "./simulated-line.ts";

export type SimulatedCallerOptions = {
  tts: TtsProvider;
  /** What the caller says, one line per turn. */
  lines: readonly string[];
  /**
   * Instead of lines: what decides each line from the agent's last words (told by `agentSaid`), synthesised
   * when the caller's turn comes (persona-caller.ts).
   */
  mind?: CallerMind;
  from: string;
  to: string;
  /** How long the agent is quiet after speaking before the caller takes its turn. */
  quietMs?: number;
  /** How long the caller waits for an agent that says nothing before it speaks anyway. */
  patienceMs?: number;
  /** The call is hung up after this long whatever happens. */
  maxMs?: number;
};

/** What the caller did, for tests and logs. */
export type SimulatedCallerStats = {
  linesSaid: number;
  /** Agent frames that reached the caller (its speech). */
  agentFramesHeard: number;
  /** ms from the call's start to the agent's first frame reaching the caller (its greeting), else null. */
  firstHeardMs: number | null;
  hungUpBy: "caller" | "agent" | null;
  /** Why the caller's mind gave no next line (its model failed), else null: the caller then hung up. */
  mindFailed: string | null;
};

export type SimulatedCaller = {
  leg: CallLeg;
  stats: SimulatedCallerStats;
  /** The agent's words as the call's transcript tells them (for a caller with a mind). */
  agentSaid(text: string): void;
};

async function speechFrames(tts: TtsProvider, text: string): Promise<Int16Array[]> {
  const framer = createFramer();
  const frames: Int16Array[] = [];
  for await (const chunk of tts.synthesize(text)) frames.push(...framer.push(chunk));
  return [...frames, ...framer.flush()];
}

export async function simulatedCaller(options: SimulatedCallerOptions): Promise<SimulatedCaller> {
  const quietMs = options.quietMs ?? 900;
  const patienceMs = options.patienceMs ?? 6000;
  const maxMs = options.maxMs ?? 120_000;
  // Synthesised before the call starts, so the caller never pauses mid-line for its own TTS.
  const lines: Int16Array[][] = [];
  for (const line of options.lines) lines.push(await speechFrames(options.tts, line));

  const stats: SimulatedCallerStats = {
    linesSaid: 0,
    agentFramesHeard: 0,
    firstHeardMs: null,
    hungUpBy: null,
    mindFailed: null,
  };
  const silence = new Int16Array(FRAME_SAMPLES);
  let speaking: Int16Array[] = [];
  /** When the caller last finished a line (or the call started). */
  let turnStartedAt = Date.now();
  let agentSpokeThisTurn = false;
  let lastAgentFrameAt = 0;
  const started = Date.now();
  /** The agent's words since the caller's last line, and the next line being thought of and synthesised. */
  let heardWords: string[] = [];
  let thinking: Promise<void> | null = null;
  let nothingMore = false;
  const think = (mind: CallerMind) => {
    const agentWords = heardWords.join(" ");
    heardWords = [];
    thinking = mind(agentWords)
      .then(async (text) => {
        if (!text) nothingMore = true;
        else {
          speaking = await speechFrames(options.tts, text);
          stats.linesSaid++;
        }
      })
      .catch((error: unknown) => {
        stats.mindFailed = error instanceof Error ? error.message : String(error);
        nothingMore = true;
      })
      .finally(() => {
        thinking = null;
      });
  };

  const leg = simulatedLine({
    idPrefix: "simulated",
    from: options.from,
    to: options.to,
    onEnd: (by) => {
      stats.hungUpBy = by === "far-end" ? "caller" : "agent";
    },
    step: (heard, agentQueued) => {
      const now = Date.now();
      if (heard) {
        stats.agentFramesHeard++;
        stats.firstHeardMs ??= now - started;
        agentSpokeThisTurn = true;
        lastAgentFrameAt = now;
      }
      if (now - started >= maxMs) return "hang-up";
      const frame = speaking.shift();
      if (frame) {
        if (speaking.length === 0) {
          turnStartedAt = now;
          agentSpokeThisTurn = false;
        }
        return frame;
      }
      // The caller's turn: the agent has answered and gone quiet (or said nothing for too long).
      const agentDone =
        agentQueued === 0 &&
        ((agentSpokeThisTurn && now - lastAgentFrameAt >= quietMs) || now - turnStartedAt >= patienceMs);
      if (!agentDone) return silence;
      if (options.mind) {
        // A line is being thought of: the caller is quiet meanwhile; spoken from the next frame on.
        if (thinking) return silence;
        if (nothingMore) return "hang-up";
        think(options.mind);
        return silence;
      }
      const next = lines[stats.linesSaid];
      if (!next) return "hang-up";
      stats.linesSaid++;
      speaking = [...next];
      return silence;
    },
  });
  return {
    leg,
    stats,
    agentSaid: (text) => {
      if (text.trim()) heardWords.push(text.trim());
    },
  };
}
