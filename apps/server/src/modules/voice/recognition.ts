/**
 * Recognition, the stage between hearing and the turn: one recogniser (STT stream) per caller utterance,
 * asked for its text when the turn ends (or at a pause), never rejected: a recogniser that fails, does not
 * answer within the call's `recognitionTimeoutMs` or was aborted gives `null`, and the turn asks the caller
 * to repeat. On a line that tells its far end's words (the sandbox carrier's callee) those are the text.
 */
import type { SttProvider, SttStream } from "../../providers/stt/stt-provider.ts";
import type { CallSettings } from "./call-settings.ts";

/**
 * What the recogniser made of an utterance: its text and confidence (null when it gives none), or null when
 * the recognition failed, timed out or was aborted.
 */
export type Recognition = { text: string; confidence: number | null } | null;

/** Below this confidence (for recognisers that give one) a caller turn counts as not understood. */
const MIN_CONFIDENCE = 0.4;

/** What the recognition stage reads of its call (the call's shell gives it). */
export type RecognitionCall = {
  readonly settings: CallSettings;
  readonly deps: { readonly stt: SttProvider };
  readonly log: { warn(object: object, message: string): void };
  /** The call is over or closing: a recogniser failing then is no news. */
  readonly finished: boolean;
  readonly closing: boolean;
};

export type RecognitionStage = ReturnType<typeof createRecognition>;

/** `tells`: the line tells its far end's words (its `onSaid`); they are heard as the turns. */
export function createRecognition(call: RecognitionCall, tells: boolean) {
  /** Recognisers the pipeline aborted itself (a backchannel, a cough): their failure is no news. */
  const dropped = new WeakSet<SttStream>();
  /** The lines said and not yet heard as a turn (null: a line that does not tell). */
  const told: string[] | null = tells ? [] : null;

  function drop(stream: SttStream) {
    dropped.add(stream);
    stream.abort();
  }

  function recognise(stream: SttStream): Promise<Recognition> {
    // A line tells its words as it starts saying them: at a pause they cannot tell whether it is done, so
    // there is no early recognition there; the turn ends at its endpoint.
    if (told) return Promise.resolve(null);
    const limit = call.settings.recognitionTimeoutMs;
    return new Promise<Recognition>((resolve) => {
      const timer = setTimeout(() => {
        call.log.warn({ timeoutMs: limit }, "speech recognition did not answer in time");
        resolve(null);
        try {
          drop(stream);
        } catch {}
      }, limit);
      const settle = (result: Recognition) => {
        clearTimeout(timer);
        resolve(result);
      };
      let finished: Promise<string>;
      try {
        finished = stream.finish();
      } catch (error) {
        finished = Promise.reject(error);
      }
      finished.then(
        (text) => settle({ text: typeof text === "string" ? text : "", confidence: confidenceOf(stream) }),
        (error: unknown) => {
          // A hang-up or a dropped utterance aborts the recogniser: nothing worth a line then.
          if (!call.finished && !call.closing && !dropped.has(stream))
            call.log.warn({ err: error }, "speech recognition failed");
          settle(null);
        },
      );
    });
  }

  return {
    /** Whether the line tells its words (turns are heard as them, not by the recogniser). */
    tells,
    /**
     * A recogniser for a new utterance; one that cannot start fails that turn only. On a line that tells its
     * words none is started (a recogniser costs a process or a request per utterance).
     */
    start(): SttStream {
      if (told) return { write() {}, finish: async () => "", abort() {} };
      try {
        return call.deps.stt.start();
      } catch (error) {
        const failure = Promise.reject(error);
        failure.catch(() => {});
        return { write() {}, finish: () => failure, abort() {} };
      }
    },
    /** The recognition of what was written to `stream` so far (it is finished). */
    recognise,
    /** A recogniser no longer wanted (a backchannel, a cough): aborted, its failure unlogged. */
    drop,
    /**
     * An utterance's final text: on a line that tells its words, the lines said since the last turn ("" when
     * none); else `early` (recognised at a pause, nothing voiced since), else the recogniser's.
     */
    final(stream: SttStream, early: Promise<Recognition> | null): Promise<Recognition> {
      if (told) {
        drop(stream);
        return Promise.resolve({ text: told.splice(0).join(" "), confidence: null });
      }
      return early ?? recognise(stream);
    },
    /** The line told what its far end said. */
    said(text: string) {
      told?.push(text);
    },
  };
}

function confidenceOf(stream: SttStream): number | null {
  try {
    const value = stream.confidence?.() ?? null;
    return typeof value === "number" && Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** Words the recogniser heard with enough confidence to answer (not noise markers or an empty result). */
export function understood(recognition: Recognition): boolean {
  if (!recognition) return false;
  const words = recognition.text.replace(/\[[^\]]*\]|<[^>]*>|\([^)]*\)/g, " ");
  if (!/[\p{L}\p{N}]/u.test(words)) return false;
  return recognition.confidence === null || recognition.confidence >= MIN_CONFIDENCE;
}
