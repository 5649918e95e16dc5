/**
 * Hearing, the stage after the caller's frame stages: each frame through the VAD and the endpointer
 * (turn-taking in 20 ms frames), an utterance's frames streamed to its recogniser (with the pre-roll before
 * the onset), a short pause recognised early and the turn ended at once when it reads as complete. What it
 * decides goes out as events (`HearingEvents`): hold or release the agent's speech, a barge-in, the caller
 * heard, a turn with its recognition to come. It reads nothing of the other stages.
 */
import type { SttStream } from "../../providers/stt/stt-provider.ts";
import type { VadStream } from "../../providers/vad/vad-provider.ts";
import type { CallSettings } from "./call-settings.ts";
import { createEndpointer, type EndpointEvent, endsTurn } from "./endpointer.ts";
import type { Recognition, RecognitionStage } from "./recognition.ts";

/** Frames before the onset handed to the recogniser too (the VAD confirms onsets 40-60 ms late). */
const PREROLL_FRAMES = 15;

/** When each part of a caller turn happened (performance.now() ms), for the latency figures. */
export type TurnTiming = {
  /** The last voiced caller frame of the utterance arrived. */
  lastVoicedAt: number;
  /** Endpointing decided the turn was over. */
  endpointAt: number;
  /** The recogniser's final text. */
  sttAt: number;
  text: string;
  /** The model's first text. */
  firstTokenAt: number | null;
  /** The first synthesised audio of the answer. */
  firstAudioAt: number | null;
  /** The first answer frame handed to the leg. */
  firstFrameAt: number | null;
};

/** A caller turn as the hearing stage hands it on. */
export type HeardTurn = {
  /** Its recognition (never rejected); the timing's `sttAt` and `text` are set when it comes. */
  recognised: Promise<Recognition>;
  timing: TurnTiming;
  /** It began over the agent's speech (and was confirmed as an interruption). */
  duringAgent: boolean;
};

/**
 * Whether a caller's turn is over at a short pause, from the text recognised so far and the utterance's
 * frames (pre-roll included): the default reads the words (`endsTurn`); a turn-detection model is one file
 * exporting one of these, given to `createHearing` in call-session.ts. A rejection counts as "not over".
 */
export type TurnDetector = (text: string, frames: readonly Int16Array[]) => boolean | Promise<boolean>;

/** What the hearing stage tells the call. */
export type HearingEvents = {
  /** Whether the agent is talking now (an onset then may be an interruption). */
  agentTalking(): boolean;
  /** Caller speech began over the agent: silence it at once, keeping what is left. */
  hold(): void;
  /** That was a backchannel or a noise: the agent goes on where it stopped. */
  release(): void;
  /** It lasted: a real interruption. */
  bargeIn(): void;
  /** The caller was heard: an onset, or a voiced frame of an utterance (`voiced`). */
  heard(voiced: boolean): void;
  /** A caller turn ended. */
  turn(turn: HeardTurn): void;
};

/** What the hearing stage reads of its call. */
export type HearingCall = {
  readonly settings: CallSettings;
  readonly finished: boolean;
  readonly closing: boolean;
  unexpected(error: unknown, where: string): void;
};

/** The caller's utterance being heard: its recogniser, and whether it began over the agent's speech. */
type Utterance = {
  stt: SttStream;
  /** Every frame of the utterance so far (pre-roll included), to hear it again after a pause. */
  frames: Int16Array[];
  /** The recognition of the utterance up to a pause (null when there was none, or the caller went on). */
  early: Promise<Recognition> | null;
  duringAgent: boolean;
  confirmed: boolean;
  lastVoicedAt: number;
};

export type Hearing = ReturnType<typeof createHearing>;

export function createHearing(
  call: HearingCall,
  recognition: RecognitionStage,
  events: HearingEvents,
  turnOver: TurnDetector = endsTurn,
) {
  let vad: VadStream | null = null;
  let endpointer = createEndpointer(call.settings);
  const preroll: Int16Array[] = [];
  let utterance: Utterance | null = null;

  function onEndpoint(event: EndpointEvent) {
    if (event.type === "start") {
      events.heard(false);
      const duringAgent = events.agentTalking();
      if (duringAgent) events.hold();
      const stt = recognition.start();
      for (const frame of preroll) stt.write(frame);
      utterance = {
        stt,
        frames: [...preroll],
        early: null,
        duringAgent,
        confirmed: false,
        lastVoicedAt: performance.now(),
      };
    } else if (event.type === "pause") {
      // A short pause: recognise what was said so far; a complete sentence ends the turn at once.
      const current = utterance;
      if (!current || (current.duringAgent && !current.confirmed)) return;
      const early = recognition.recognise(current.stt);
      current.early = early;
      const stale = () => utterance !== current || current.early !== early || call.finished;
      const endNow = (over: boolean) => {
        try {
          if (!over || stale()) return;
          const end = endpointer.endNow();
          if (end) onEndpoint(end);
        } catch (error) {
          call.unexpected(error, "quick turn");
        }
      };
      void early.then((result) => {
        try {
          if (stale() || !result) return;
          const over = turnOver(result.text, current.frames);
          if (typeof over === "boolean") endNow(over);
          else over.then(endNow, () => {});
        } catch (error) {
          call.unexpected(error, "quick turn");
        }
      });
    } else if (event.type === "resume") {
      // The caller went on: the early recognition is stale; a fresh recogniser hears the whole utterance.
      const current = utterance;
      if (!current?.early) return;
      current.early = null;
      current.stt = recognition.start();
      for (const frame of current.frames) current.stt.write(frame);
    } else if (event.type === "confirmed") {
      if (utterance) utterance.confirmed = true;
      if (utterance?.duringAgent) events.bargeIn();
    } else if (event.type === "lull") {
      if (utterance?.duringAgent && !utterance.confirmed) events.release();
    } else if (event.type === "end") {
      const current = utterance;
      utterance = null;
      if (!current) return;
      if (!event.turn || (current.duringAgent && !current.confirmed)) {
        // A click, a cough or a backchannel: not a turn.
        recognition.drop(current.stt);
        if (current.duringAgent) events.release();
        return;
      }
      const timing: TurnTiming = {
        lastVoicedAt: current.lastVoicedAt,
        endpointAt: performance.now(),
        sttAt: 0,
        text: "",
        firstTokenAt: null,
        firstAudioAt: null,
        firstFrameAt: null,
      };
      // After a pause with no voice since, the early recognition heard the whole turn.
      const recognised = recognition.final(current.stt, current.early).then((result) => {
        timing.sttAt = performance.now();
        timing.text = result?.text ?? "";
        return result;
      });
      events.turn({ recognised, timing, duringAgent: current.duringAgent });
    }
  }

  return {
    /** The VAD is ready (the call is set up): frames are heard from now on, with the agent's settings. */
    listen(stream: VadStream) {
      vad = stream;
      endpointer = createEndpointer(call.settings);
    },
    /** One caller frame (after the frame stages). */
    hear(frame: Int16Array) {
      if (call.finished || call.closing || !vad) return;
      const voiced = vad.isSpeech(frame);
      preroll.push(frame);
      if (preroll.length > PREROLL_FRAMES) preroll.shift();
      const endpoints = endpointer.push(voiced);
      const current = utterance;
      if (current && !endpoints.some((e) => e.type === "start")) {
        current.frames.push(frame);
        current.stt.write(frame);
      }
      if (voiced && current) {
        current.lastVoicedAt = performance.now();
        events.heard(true);
      }
      for (const event of endpoints) onEndpoint(event);
    },
    /** The caller is in an utterance (a turn may be coming). */
    get speaking(): boolean {
      return utterance !== null || endpointer.inUtterance;
    },
    /** The utterance in progress is given up (the call ends, or says goodbye): its recogniser aborted. */
    stop() {
      const current = utterance;
      utterance = null;
      current?.stt.abort();
    },
    /** The call is over: the VAD is closed. */
    close() {
      vad?.close();
    },
  };
}
