import { randomUUID } from "node:crypto";
import { FRAME_MS } from "../../audio/audio-format.ts";
import type { CallLeg } from "./call-leg.ts";

/** How far a late tick catches up (500 ms); a longer stall loses the frames before. */
const MAX_CATCH_UP_FRAMES = 25;

export type LineEnd = "far-end" | "agent";

/**
 * A phone line to a simulated far end (the sandbox carrier's callee, the demo's callers), in real time: every
 * 20 ms the agent's next queued frame reaches the far end and the far end's next frame reaches the pipeline.
 * `step` is the far end: given what it heard in that 20 ms (null when the agent was quiet) and how many agent
 * frames still wait, it answers its own frame, or "hang-up".
 */
export function simulatedLine(options: {
  idPrefix: string;
  from: string;
  to: string;
  step: (heard: Int16Array | null, agentQueued: number) => Int16Array | "hang-up";
  /** Called once, at once, when either side hangs up. */
  onEnd: (by: LineEnd) => void;
  /** The far end hears keys pressed (each reaches it 160 ms after the one before, as RFC 4733 takes). */
  onDigit?: (digit: string) => void;
  /**
   * The line tells the call the far end's words (`onSaid`) in place of recognition: the sandbox carrier's
   * callee, whose synthesised phone audio the recogniser makes little of. Off for simulated callers, whose
   * calls test the whole pipeline, recognition included.
   */
  tellsWords?: boolean;
}): CallLeg & { said(text: string): void } {
  const listeners = {
    audio: [] as ((frame: Int16Array) => void)[],
    hangup: [] as (() => void)[],
    played: [] as ((frame: Int16Array, at: number) => void)[],
    said: [] as ((text: string) => void)[],
  };
  const agentQueue: Int16Array[] = [];
  const unheard: string[] = [];
  let ended = false;

  const end = (by: LineEnd) => {
    if (ended) return;
    ended = true;
    clearInterval(clock);
    agentQueue.length = 0;
    options.onEnd(by);
    if (by === "far-end") for (const listener of listeners.hangup) listener();
  };

  // Frames go by the wall clock, as a real line's keep coming while this process is busy: a late tick plays
  // every frame that fell due meanwhile (the far end's arrive at once, as packets held in a socket's buffer
  // do), up to MAX_CATCH_UP_FRAMES; older ones are lost. One frame a tick would slow the whole call down under
  // load, and gaps in it would read as the far end's silence.
  const startedAt = performance.now();
  let played = 0;
  const clock = setInterval(() => {
    const due = Math.floor((performance.now() - startedAt) / FRAME_MS);
    played = Math.max(played, due - MAX_CATCH_UP_FRAMES);
    while (!ended && played < due) {
      const at = startedAt + played * FRAME_MS;
      played++;
      const heard = agentQueue.shift() ?? null;
      if (heard) for (const listener of listeners.played) listener(heard, at);
      const frame = options.step(heard, agentQueue.length);
      if (frame === "hang-up") return end("far-end");
      for (const listener of listeners.audio) listener(frame);
    }
  }, FRAME_MS);

  return {
    info: {
      transport: "sip",
      callId: `${options.idPrefix}-${randomUUID()}`,
      from: options.from,
      to: options.to,
      narrowband: false,
    },
    onAudio: (listener) => void listeners.audio.push(listener),
    onDtmf: () => {},
    onHangup: (listener) => void listeners.hangup.push(listener),
    onPlayed: (listener) => void listeners.played.push(listener),
    ...(options.tellsWords
      ? {
          onSaid: (listener: (text: string) => void) => {
            listeners.said.push(listener);
            // Lines said before anyone listened (a leg is handed over a moment after it answered).
            for (const text of unheard.splice(0)) listener(text);
          },
        }
      : {}),
    /** The far end starts to say `text` (its owner calls this as the line's audio begins). */
    said: (text) => {
      if (ended || !options.tellsWords) return;
      if (listeners.said.length === 0) unheard.push(text);
      for (const listener of listeners.said) listener(text);
    },
    sendAudio: (frame) => {
      if (!ended) agentQueue.push(frame);
    },
    clearAudio: () => {
      agentQueue.length = 0;
    },
    queuedFrames: () => agentQueue.length,
    hangup: () => end("agent"),
    ...(options.onDigit
      ? {
          sendDtmf: async (digits: string) => {
            for (const digit of digits) {
              await new Promise((resolve) => setTimeout(resolve, 160));
              if (ended) return false;
              options.onDigit?.(digit);
            }
            return true;
          },
        }
      : {}),
  };
}
