import { type CallSettings, framesOf } from "./call-settings.ts";

/**
 * Turn-taking over per-frame VAD decisions (20 ms frames), in frames so it is exact and testable:
 * - `start` when 3 voiced frames in a row begin an utterance (at the first of them);
 * - `confirmed` once the utterance has `bargeInMinSpeechMs` of voiced frames (an interruption, not a
 *   backchannel);
 * - `lull` when an unconfirmed utterance falls silent for 200 ms (a backchannel is over: the agent goes on);
 * - `pause` after `quickTurnSilenceMs` of silence in an utterance long enough to be a turn (once per stretch
 *   of silence): the
 *   pipeline may recognise what was said so far and end the turn at once when it is a complete sentence
 *   (`endNow`); `resume` when the caller goes on talking after a pause;
 * - `end` after `endpointSilenceMs` of silence: `turn` true when it had `minUtteranceMs` of voice.
 */
export type EndpointEvent =
  | { type: "start"; frame: number }
  | { type: "confirmed"; frame: number }
  | { type: "lull"; frame: number }
  | { type: "pause"; frame: number }
  | { type: "resume"; frame: number }
  | { type: "end"; frame: number; turn: boolean; voicedFrames: number; lastVoicedFrame: number };

const ONSET_FRAMES = 3;
const LULL_FRAMES = 10;

export function createEndpointer(settings: CallSettings) {
  const endFrames = framesOf(settings.endpointSilenceMs);
  const confirmFrames = framesOf(settings.bargeInMinSpeechMs);
  const minFrames = framesOf(settings.minUtteranceMs);
  const pauseFrames = settings.quickTurnSilenceMs > 0 ? framesOf(settings.quickTurnSilenceMs) : 0;
  let paused = false;
  let frame = -1;
  let run = 0;
  let inUtterance = false;
  let voiced = 0;
  let silent = 0;
  let confirmed = false;
  let lastVoiced = -1;

  function end(): EndpointEvent {
    inUtterance = false;
    paused = false;
    run = 0;
    return {
      type: "end",
      frame,
      turn: voiced >= minFrames,
      voicedFrames: voiced,
      lastVoicedFrame: lastVoiced,
    };
  }

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
        if (paused) {
          paused = false;
          events.push({ type: "resume", frame });
        }
      } else {
        silent++;
      }
      if (!confirmed && voiced >= confirmFrames) {
        confirmed = true;
        events.push({ type: "confirmed", frame });
      }
      if (!confirmed && silent === LULL_FRAMES) events.push({ type: "lull", frame });
      if (pauseFrames > 0 && silent === pauseFrames && pauseFrames < endFrames && voiced >= minFrames) {
        paused = true;
        events.push({ type: "pause", frame });
      }
      if (silent >= endFrames) events.push(end());
      return events;
    },
    /** Ends the utterance now (a complete sentence heard at a pause); null when none is going on. */
    endNow(): EndpointEvent | null {
      return inUtterance ? end() : null;
    },
    reset() {
      run = 0;
      inUtterance = false;
      paused = false;
    },
  };
}

/** Words after which a sentence is not over ("I'd like to", "my number is", "um"). */
const CONTINUES = new Set(
  (
    "a an the and or but so because cause if when while than then that which who whose to of for from with " +
    "without about into onto in on at by as like my your our their his her its is are was were be am i " +
    "we you they it uh um er erm hmm mm well just maybe also very really plus"
  ).split(" "),
);

/**
 * Whether a recognised turn reads as complete, so the agent may answer after a short pause instead of the
 * full end-of-turn silence: at least two words, not ending on a word that needs more ("to", "and", "um").
 * A recogniser gives no punctuation, so this is all there is to go on offline.
 */
export function endsTurn(text: string): boolean {
  const words = text.toLowerCase().match(/[a-z0-9']+/g) ?? [];
  if (words.length < 2) return false;
  return !CONTINUES.has(words.at(-1) as string);
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
