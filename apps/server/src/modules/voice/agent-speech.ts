/**
 * The agent's speech, the stage before the transport: a stretch of speech takes sentences, synthesises them
 * in order (TTS, one at a time, cut into 20 ms frames) and hands the frames to the leg as they are made,
 * which paces them in real time. Barge-in: at the caller's speech onset over the agent the leg's queue is
 * cleared at once (`hold`); a backchannel lets it go on where it stopped (`release`); a real interruption
 * (`interrupt`) drops the rest and cuts the stored text and the caption to what the caller heard. Its state
 * (the current speech, held or not, keys being played) is its own; the turns stage asks it to speak.
 */
import { createFramer } from "../../audio/pcm.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";
import type { MessageRow } from "../conversations/index.ts";
import type { CallLeg } from "./call-leg.ts";
import type { VoiceRepository } from "./voice.repository.ts";

/** One stretch of agent speech (the greeting, an answer, a prompt): its frames and what they say. */
export type Speech = {
  frames: Int16Array[];
  /** Index of the next frame to hand to the leg. */
  sent: number;
  sentences: { text: string; endFrame: number }[];
  controller: AbortController;
  /** The stored message (to cut on barge-in): the greeting's at once, an answer's when its turn ends. */
  stored: Promise<MessageRow | null>;
  keep(message: MessageRow | null): void;
  spokenText: string;
  /** The text handed to speech so far (the live caption). */
  captionText: string;
  /** The final caption was given (once played, or cut to what was heard on barge-in). */
  captionDone: boolean;
  finished: Promise<void>;
  say(sentence: string): void;
  close(): void;
};

/** What the speech stage reads of its call. */
export type SpeechCall = {
  /** The leg to the caller (wrapped for the recording). */
  readonly leg: Pick<CallLeg, "sendAudio" | "clearAudio" | "queuedFrames">;
  readonly deps: { readonly tts: TtsProvider; readonly voice: Pick<VoiceRepository, "cutMessage"> };
  readonly log: { error(object: object, message: string): void };
  /** The agent's TTS voice (known once the call is set up). */
  readonly voice: string | null;
  readonly finished: boolean;
  /** Whether anyone watches the captions (the final one waits for the speech to be played). */
  readonly captions: boolean;
  caption(role: "agent", text: string, final: boolean): void;
  unexpected(error: unknown, where: string): void;
};

/** What of a speech the caller heard: whole sentences played, and the played share of the one cut. */
export function heardText(current: Pick<Speech, "sent" | "sentences">): string {
  const played = current.sent;
  const words: string[] = [];
  let start = 0;
  for (const sentence of current.sentences) {
    if (sentence.endFrame <= played) words.push(sentence.text);
    else {
      const share = (played - start) / Math.max(1, sentence.endFrame - start);
      const parts = sentence.text.split(/\s+/);
      const count = Math.floor(parts.length * Math.max(0, share));
      if (count > 0) words.push(parts.slice(0, count).join(" "));
      break;
    }
    start = sentence.endFrame;
  }
  return words.join(" ");
}

export type AgentSpeech = ReturnType<typeof createAgentSpeech>;

export function createAgentSpeech(call: SpeechCall) {
  let current: Speech | null = null;
  let held = false;
  let tones = false;
  /** When frames last went to the leg (performance.now()). */
  let lastSentAt = performance.now();
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  function send(frames: Iterable<Int16Array>) {
    for (const frame of frames) call.leg.sendAudio(frame);
    lastSentAt = performance.now();
  }

  function stop(speech: Speech) {
    speech.controller.abort();
    if (current === speech) current = null;
  }

  function hold() {
    if (held) return;
    held = true;
    const queued = call.leg.queuedFrames();
    call.leg.clearAudio();
    if (current) current.sent = Math.max(0, current.sent - queued);
  }

  /** The final caption of a speech once the leg has played it (unless a barge-in cut it first). */
  async function finalCaption(speech: Speech) {
    if (!call.captions) return;
    while (!call.finished && current === speech && (held || call.leg.queuedFrames() > 0)) await wait(20);
    if (speech.captionDone) return;
    speech.captionDone = true;
    call.caption("agent", speech.captionText, true);
  }

  async function cutMessage(speech: Speech) {
    const message = await speech.stored;
    if (!message) return;
    await call.deps.voice
      .cutMessage(message.id, speech.spokenText)
      .catch((error: unknown) => call.log.error({ err: error }, "could not cut an interrupted message"));
  }

  /** Resolves when the leg has played everything queued but `leftFrames` (or the call ended). */
  async function drained(leftFrames = 0) {
    while (!call.finished && (call.leg.queuedFrames() > leftFrames || held)) await wait(20);
  }

  return {
    /** Speech not yet played: frames not handed to the leg, or queued there. */
    get talking(): boolean {
      return current !== null && (current.sent < current.frames.length || call.leg.queuedFrames() > 0);
    },
    /** A stretch of speech is going on (played or not). */
    get speaking(): boolean {
      return current !== null;
    },
    /** Keys are being played as tones: the far end talking meanwhile does not interrupt them. */
    get pressingKeys(): boolean {
      return tones;
    },
    get lastSentAt(): number {
      return lastSentAt;
    },
    /** Starts a stretch of speech (the one going on stops): sentences are synthesised in order and go out. */
    speak(onFirstAudio?: () => void, onFirstFrame?: () => void): Speech {
      if (current) stop(current);
      const controller = new AbortController();
      const queue: string[] = [];
      let closed = false;
      let wake: (() => void) | null = null;
      let keep!: (message: MessageRow | null) => void;
      const stored = new Promise<MessageRow | null>((resolve) => {
        keep = resolve;
      });
      const speech: Speech = {
        frames: [],
        sent: 0,
        sentences: [],
        controller,
        stored,
        keep,
        spokenText: "",
        captionText: "",
        captionDone: false,
        finished: Promise.resolve(),
        say(sentence) {
          queue.push(sentence);
          speech.captionText = speech.captionText ? `${speech.captionText} ${sentence}` : sentence;
          call.caption("agent", speech.captionText, false);
          wake?.();
        },
        close() {
          closed = true;
          wake?.();
        },
      };
      // Never rejected (answers and lines wait for it): a failure is the call's, not an unhandled rejection.
      speech.finished = (async () => {
        while (!controller.signal.aborted) {
          const sentence = queue.shift();
          if (sentence === undefined) {
            if (closed) {
              finalCaption(speech).catch((error: unknown) => call.unexpected(error, "final caption"));
              return;
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = null;
            continue;
          }
          const framer = createFramer();
          const add = (frames: Int16Array[]) => {
            if (controller.signal.aborted || frames.length === 0) return;
            speech.frames.push(...frames);
            if (!held && current === speech) {
              if (speech.sent === 0) onFirstFrame?.();
              send(speech.frames.slice(speech.sent));
              speech.sent = speech.frames.length;
            }
          };
          try {
            let first = true;
            for await (const chunk of call.deps.tts.synthesize(sentence, {
              voice: call.voice,
              signal: controller.signal,
            })) {
              if (first) onFirstAudio?.();
              first = false;
              add(framer.push(chunk));
            }
          } catch (error) {
            if (!controller.signal.aborted) call.log.error({ err: error }, "text to speech failed");
          }
          add(framer.flush());
          if (!controller.signal.aborted)
            speech.sentences.push({ text: sentence, endFrame: speech.frames.length });
        }
      })().catch((error: unknown) => call.unexpected(error, "agent speech"));
      current = speech;
      held = false;
      return speech;
    },
    /** The caller started talking over the agent: silence at once, keep what is left to go on. */
    hold,
    /** It was a backchannel: the agent goes on where it stopped. */
    release() {
      if (!held) return;
      held = false;
      if (current && current.sent < current.frames.length) {
        send(current.frames.slice(current.sent));
        current.sent = current.frames.length;
      }
    },
    /** The caller interrupted for real: the rest is dropped, the stored text and caption cut to what was heard. */
    interrupt() {
      hold();
      held = false;
    },
    /** After `interrupt` (and the answer's model stopped): the speech cut to what the caller heard. */
    cut() {
      const speech = current;
      if (!speech) return;
      speech.spokenText = heardText(speech);
      if (!speech.captionDone) {
        speech.captionDone = true;
        call.caption("agent", speech.spokenText, true);
      }
      stop(speech);
      void cutMessage(speech);
    },
    /** The call is over: the speech going on stops. */
    stop() {
      if (current) stop(current);
    },
    /** Drops audio queued at the leg (a new answer starts). */
    clearQueued() {
      if (call.leg.queuedFrames() > 0) call.leg.clearAudio();
    },
    drained,
    /** Resolves when the queued speech has been played (quiet for 300 ms), at most `limitMs`. */
    async spoken(limitMs = 20_000) {
      const until = performance.now() + limitMs;
      let quiet = 0;
      while (!call.finished && quiet < 3 && performance.now() < until) {
        await wait(100);
        quiet = call.leg.queuedFrames() === 0 && !held ? quiet + 1 : 0;
      }
    },
    /** Plays keys as the tones a telephone makes (in-band DTMF) and waits until they were played. */
    async playTones(frames: Iterable<Int16Array>) {
      tones = true;
      try {
        send(frames);
        await drained();
      } finally {
        tones = false;
      }
    },
  };
}
