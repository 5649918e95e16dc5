/**
 * What the caller sends: each frame through the VAD and the endpointer (turn-taking in 20 ms frames), an
 * utterance's frames streamed to its recogniser (with the pre-roll before the onset), barge-in over the
 * agent's speech, finished turns queued for an answer; pressed digits gathered into one turn.
 */
import type { SttStream } from "../../providers/stt/stt-provider.ts";
import { agentBusy } from "./agent-speech.ts";
import { bargeIn, pause, resume } from "./barge-in.ts";
import { caption } from "./call-captions.ts";
import { guarded } from "./call-guard.ts";
import type { CallContext, Recognition, TurnTiming } from "./call-session-types.ts";
import { answer, queueTurn, sayLine } from "./call-turns.ts";
import { type EndpointEvent, endsTurn } from "./endpointer.ts";

/** Frames before the onset handed to the recogniser too (the VAD confirms onsets 40-60 ms late). */
const PREROLL_FRAMES = 15;
const DTMF_GAP_MS = 700;
/** Below this confidence (for recognisers that give one) a caller turn counts as not understood. */
const MIN_CONFIDENCE = 0.4;

/** Recognisers the pipeline aborted itself (a backchannel, a cough): their failure is no news. */
const dropped = new WeakSet<SttStream>();

function drop(stream: SttStream) {
  dropped.add(stream);
  stream.abort();
}

/** A recogniser for a new utterance; one that cannot start fails that turn only. */
function startRecogniser(ctx: CallContext): SttStream {
  try {
    return ctx.deps.stt.start();
  } catch (error) {
    const failure = Promise.reject(error);
    failure.catch(() => {});
    return { write() {}, finish: () => failure, abort() {} };
  }
}

/**
 * The recognition of what was written to `stream`, never rejected: null when the recogniser failed, did not
 * answer within the call's `recognitionTimeoutMs` (it is aborted then) or was aborted (a hang-up).
 */
function recognise(ctx: CallContext, stream: SttStream): Promise<Recognition> {
  const limit = ctx.settings.recognitionTimeoutMs;
  return new Promise<Recognition>((resolve) => {
    const timer = setTimeout(() => {
      ctx.log.warn({ timeoutMs: limit }, "speech recognition did not answer in time");
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
        if (!ctx.finished && !ctx.closing && !dropped.has(stream))
          ctx.log.warn({ err: error }, "speech recognition failed");
        settle(null);
      },
    );
  });
}

/** The far end's words told by the line since the last turn ("" when none), in place of recognition. */
function told(ctx: CallContext, stream: SttStream): Promise<Recognition> {
  drop(stream);
  return Promise.resolve({ text: (ctx.told ?? []).splice(0).join(" "), confidence: null });
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

/**
 * A caller turn that could not be understood: the agent asks once to repeat; after that it does not ask
 * again in a row (no loop): a low-confidence text is answered as heard, nothing at all is left to the idle
 * prompt.
 */
async function notUnderstood(ctx: CallContext, recognition: Recognition, timing: TurnTiming) {
  ctx.unheardTurns++;
  if (ctx.unheardTurns === 1) {
    await sayLine(ctx, ctx.settings.repeatPrompt);
    return;
  }
  const text = recognition?.text.trim() ?? "";
  if (text && /[\p{L}\p{N}]/u.test(text)) {
    ctx.timings.push(timing);
    await answer(ctx, text, timing);
  }
}

export function onFrame(ctx: CallContext, frame: Int16Array) {
  if (ctx.finished || ctx.closing) return;
  if (!ctx.vad) {
    ctx.early.push(frame);
    return;
  }
  const voiced = ctx.vad.isSpeech(frame);
  ctx.preroll.push(frame);
  if (ctx.preroll.length > PREROLL_FRAMES) ctx.preroll.shift();
  const events = ctx.endpointer.push(voiced);
  const { utterance } = ctx;
  if (utterance && !events.some((e) => e.type === "start")) {
    utterance.frames.push(frame);
    utterance.stt.write(frame);
  }
  if (voiced && utterance) {
    utterance.lastVoicedAt = performance.now();
    ctx.lastCallerActivity = utterance.lastVoicedAt;
    ctx.idlePrompted = false;
  }
  for (const event of events) onEndpoint(ctx, event);
}

function onEndpoint(ctx: CallContext, event: EndpointEvent) {
  if (event.type === "start") {
    ctx.lastCallerActivity = performance.now();
    const duringAgent = agentBusy(ctx) && !ctx.pressingKeys;
    if (duringAgent) pause(ctx);
    const stt = startRecogniser(ctx);
    for (const frame of ctx.preroll) stt.write(frame);
    ctx.utterance = {
      stt,
      frames: [...ctx.preroll],
      early: null,
      duringAgent,
      confirmed: false,
      lastVoicedAt: performance.now(),
    };
  } else if (event.type === "pause") {
    // A short pause: recognise what was said so far; a complete sentence ends the turn at once.
    const current = ctx.utterance;
    if (!current || (current.duringAgent && !current.confirmed)) return;
    const early = recognise(ctx, current.stt);
    current.early = early;
    void early.then((recognition) =>
      guarded(ctx, "quick turn", () => {
        if (ctx.utterance !== current || current.early !== early || ctx.finished) return;
        if (!recognition || !endsTurn(recognition.text)) return;
        const end = ctx.endpointer.endNow();
        if (end) onEndpoint(ctx, end);
      }),
    );
  } else if (event.type === "resume") {
    // The caller went on: the early recognition is stale; a fresh recogniser hears the whole utterance.
    const current = ctx.utterance;
    if (!current?.early) return;
    current.early = null;
    current.stt = startRecogniser(ctx);
    for (const frame of current.frames) current.stt.write(frame);
  } else if (event.type === "confirmed") {
    if (ctx.utterance) ctx.utterance.confirmed = true;
    if (ctx.utterance?.duringAgent) bargeIn(ctx);
  } else if (event.type === "lull") {
    if (ctx.utterance?.duringAgent && !ctx.utterance.confirmed) resume(ctx);
  } else if (event.type === "end") {
    const current = ctx.utterance;
    ctx.utterance = null;
    if (!current) return;
    if (!event.turn || (current.duringAgent && !current.confirmed)) {
      // A click, a cough or a backchannel: not a turn.
      drop(current.stt);
      if (current.duringAgent) resume(ctx);
      return;
    }
    const endpointAt = performance.now();
    const timing: TurnTiming = {
      lastVoicedAt: current.lastVoicedAt,
      endpointAt,
      sttAt: 0,
      text: "",
      firstTokenAt: null,
      firstAudioAt: null,
      firstFrameAt: null,
    };
    // After a pause with no voice since, the early recognition heard the whole turn. A line that tells its
    // words: the lines said since the last turn.
    const recognised = (
      ctx.told ? told(ctx, current.stt) : (current.early ?? recognise(ctx, current.stt))
    ).then((recognition) => {
      timing.sttAt = performance.now();
      timing.text = recognition?.text ?? "";
      if (understood(recognition) && !ctx.finished) caption(ctx, "caller", timing.text, true);
      return recognition;
    });
    queueTurn(ctx, async () => {
      const recognition = await recognised;
      if (ctx.finished || ctx.closing) return;
      // More of a line already heard (its words came with its first utterance): not a turn of its own.
      if (ctx.told && !recognition?.text) {
        if (current.duringAgent) resume(ctx);
        return;
      }
      if (!understood(recognition)) {
        await notUnderstood(ctx, recognition, timing);
        return;
      }
      ctx.unheardTurns = 0;
      ctx.timings.push(timing);
      await answer(ctx, timing.text, timing);
    });
  }
}

export function onDigit(ctx: CallContext, digit: string) {
  if (ctx.finished) return;
  if (ctx.bridge) {
    ctx.bridge.digit(digit);
    return;
  }
  if (ctx.keypad) {
    // A number the agent asked for (collectDigits): the keys are the tool's, not a turn.
    ctx.lastCallerActivity = performance.now();
    ctx.keypad.push(digit);
    return;
  }
  if (ctx.closing) return;
  ctx.lastCallerActivity = performance.now();
  ctx.idlePrompted = false;
  if (agentBusy(ctx)) bargeIn(ctx);
  ctx.dtmf += digit;
  if (ctx.dtmfTimer) clearTimeout(ctx.dtmfTimer);
  ctx.dtmfTimer = setTimeout(
    () =>
      guarded(ctx, "digits", () => {
        const digits = ctx.dtmf;
        ctx.dtmf = "";
        caption(ctx, "caller", `[pressed ${digits}]`, true);
        queueTurn(ctx, () => answer(ctx, `[pressed ${digits}]`, null));
      }),
    DTMF_GAP_MS,
  );
}
