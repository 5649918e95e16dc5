import { type CallSettings, framesOf } from "./call-settings.ts";

/**
 * Turn-taking over per-frame VAD decisions (20 ms frames), in frames so it is exact and testable:
 * - `start` when 3 voiced frames in a row begin an utterance (at the first of them);
 * - `confirmed` once the utterance has `bargeInMinSpeechMs` of voiced frames (an interruption, not a
 *   backchannel);
 * - `lull` when an unconfirmed utterance falls silent for 200 ms (a backchannel is over: the agent goes on);
 * - `end` after `endpointSilenceMs` of silence: `turn` true when it had `minUtteranceMs` of voice.
 */
export type EndpointEvent =
  | { type: "start"; frame: number }
  | { type: "confirmed"; frame: number }
  | { type: "lull"; frame: number }
  | { type: "end"; frame: number; turn: boolean; voicedFrames: number; lastVoicedFrame: number };

const ONSET_FRAMES = 3;
const LULL_FRAMES = 10;

export function createEndpointer(settings: CallSettings) {
  const endFrames = framesOf(settings.endpointSilenceMs);
  const confirmFrames = framesOf(settings.bargeInMinSpeechMs);
  const minFrames = framesOf(settings.minUtteranceMs);
  let frame = -1;
  let run = 0;
  let inUtterance = false;
  let voiced = 0;
  let silent = 0;
  let confirmed = false;
  let lastVoiced = -1;

  return {
    get inUtterance() {
      return inUtterance;
    },
    push(isSpeech: boolean): EndpointEvent[] {
      frame++;
      const events: EndpointEvent[] = [];
      if (!inUtterance) {
        run = isSpeech ? run + 1 : 0;
        if (run < ONSET_FRAMES) return events;
        inUtterance = true;
        voiced = run;
        silent = 0;
        confirmed = false;
        lastVoiced = frame;
        events.push({ type: "start", frame: frame - run + 1 });
        run = 0;
      } else if (isSpeech) {
        voiced++;
        silent = 0;
        lastVoiced = frame;
      } else {
        silent++;
      }
      if (!confirmed && voiced >= confirmFrames) {
        confirmed = true;
        events.push({ type: "confirmed", frame });
      }
      if (!confirmed && silent === LULL_FRAMES) events.push({ type: "lull", frame });
      if (silent >= endFrames) {
        inUtterance = false;
        events.push({
          type: "end",
          frame,
          turn: voiced >= minFrames,
          voicedFrames: voiced,
          lastVoicedFrame: lastVoiced,
        });
      }
      return events;
    },
    reset() {
      run = 0;
      inUtterance = false;
    },
  };
}

/**
 * Cuts streamed model text into sentences for speech: a sentence ends at . ! ? (or a line break) followed
 * by white space, so "$3.50" or "Dr." mid-stream does not split early; `flush` answers the rest.
 */
export function createSentenceSplitter() {
  let buffer = "";
  return {
    push(delta: string): string[] {
      buffer += delta;
      const sentences: string[] = [];
      for (;;) {
        const match = /[.!?…]+["')\]]*\s+|\n+/.exec(buffer);
        if (!match) break;
        const end = match.index + match[0].length;
        const sentence = buffer.slice(0, end).trim();
        buffer = buffer.slice(end);
        if (sentence) sentences.push(sentence);
      }
      return sentences;
    },
    flush(): string[] {
      const rest = buffer.trim();
      buffer = "";
      return rest ? [rest] : [];
    },
  };
}
