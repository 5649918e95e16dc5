/**
 * What the caller sends: each frame through the VAD and the endpointer (turn-taking in 20 ms frames), an
 * utterance's frames streamed to its recogniser (with the pre-roll before the onset), barge-in over the
 * agent's speech, finished turns queued for an answer; pressed digits gathered into one turn.
 */
import { agentBusy } from "./agent-speech.ts";
import { bargeIn, pause, resume } from "./barge-in.ts";
import { caption } from "./call-captions.ts";
import type { CallContext, TurnTiming } from "./call-session-types.ts";
import { answer, queueTurn } from "./call-turns.ts";
import { type EndpointEvent, endsTurn } from "./endpointer.ts";

/** Frames before the onset handed to the recogniser too (the VAD confirms onsets 40-60 ms late). */
const PREROLL_FRAMES = 15;
const DTMF_GAP_MS = 700;

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
    const duringAgent = agentBusy(ctx);
    if (duringAgent) pause(ctx);
    const stt = ctx.deps.stt.start();
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
    const early = current.stt.finish();
    early.catch(() => {});
    current.early = early;
    void early.then((text) => {
      if (ctx.utterance !== current || current.early !== early || ctx.finished) return;
      if (!endsTurn(text)) return;
      const end = ctx.endpointer.endNow();
      if (end) onEndpoint(ctx, end);
    });
  } else if (event.type === "resume") {
    // The caller went on: the early recognition is stale; a fresh recogniser hears the whole utterance.
    const current = ctx.utterance;
    if (!current?.early) return;
    current.early = null;
    current.stt = ctx.deps.stt.start();
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
      current.stt.abort();
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
    // After a pause with no voice since, the early recognition heard the whole turn.
    const recognised = (current.early ?? current.stt.finish()).then(
      (text) => {
        timing.sttAt = performance.now();
        timing.text = text;
        if (text && !ctx.finished) caption(ctx, "caller", text, true);
        return text;
      },
      (error: unknown) => {
        ctx.log.error({ err: error }, "speech recognition failed");
        return "";
      },
    );
    queueTurn(ctx, async () => {
      const text = await recognised;
      if (!text || ctx.finished) return;
      ctx.timings.push(timing);
      await answer(ctx, text, timing);
    });
  }
}

export function onDigit(ctx: CallContext, digit: string) {
  if (ctx.finished) return;
  ctx.lastCallerActivity = performance.now();
  ctx.idlePrompted = false;
  if (agentBusy(ctx)) bargeIn(ctx);
  ctx.dtmf += digit;
  if (ctx.dtmfTimer) clearTimeout(ctx.dtmfTimer);
  ctx.dtmfTimer = setTimeout(() => {
    const digits = ctx.dtmf;
    ctx.dtmf = "";
    caption(ctx, "caller", `[pressed ${digits}]`, true);
    queueTurn(ctx, () => answer(ctx, `[pressed ${digits}]`, null));
  }, DTMF_GAP_MS);
}
