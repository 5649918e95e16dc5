import { withUnexpectedContext } from "../../process-guard.ts";
import { createAgentSpeech } from "./agent-speech.ts";
import { caption } from "./call-captions.ts";
import { failUnexpectedly, finish } from "./call-end.ts";
import { guarded } from "./call-guard.ts";
import type { CallLeg } from "./call-leg.ts";
import { housekeeping } from "./call-limits.ts";
import { createCallRecorder, recordingLeg } from "./call-recording.ts";
import type {
  CallContext,
  CallSession,
  CallSessionDeps,
  CallSummary,
  StartCallOptions,
} from "./call-session-types.ts";
import { callSettingsOf } from "./call-settings.ts";
import { setUpCall } from "./call-setup.ts";
import { transferLogData } from "./call-transfer.ts";
import { agentBusy, answer, bargeIn, heardTurn, queueTurn } from "./call-turns.ts";
import { frameChain } from "./caller-frames.ts";
import { createHearing } from "./caller-hearing.ts";
import { createCallerKeys } from "./caller-keys.ts";
import { earlyFrames } from "./early-frames.ts";
import { createRecognition } from "./recognition.ts";

export type {
  CallOutcome,
  CallSession,
  CallSessionDeps,
  CallSummary,
  StartCallOptions,
  TurnTiming,
} from "./call-session-types.ts";

/**
 * One call: the agent greets, then listens (VAD + endpointing), recognises each caller turn (STT streamed
 * while the caller talks), answers through the same agent turns as the test chat and SMS (configuration,
 * tools, transcript, log row), and speaks the answer sentence by sentence (TTS) into the leg. Barge-in: at
 * the caller's speech onset the agent's queued audio is cleared at once (paused); if the speech lasts
 * `bargeInMinSpeechMs` the answer is dropped, the model stream cancelled and the stored text cut to what was
 * heard, otherwise (a backchannel) the agent goes on where it stopped.
 *
 * This file only creates the call's shared state (`CallContext`) and wires the parts: call-setup.ts,
 * caller-input.ts (VAD, endpointing, STT, DTMF), barge-in.ts, call-turns.ts (greeting, answers, fixed
 * lines), agent-speech.ts (sentence TTS into the leg), call-captions.ts, call-limits.ts (idle prompts, time
 * limit) and call-end.ts (the end and the call's log row).
 */
export function startCallSession(
  transportLeg: CallLeg,
  options: StartCallOptions,
  deps: CallSessionDeps,
): CallSession {
  let resolveReady!: (uuid: string | null) => void;
  let resolveEnded!: (summary: CallSummary) => void;
  const ready = new Promise<string | null>((resolve) => {
    resolveReady = resolve;
  });
  const ended = new Promise<CallSummary>((resolve) => {
    resolveEnded = resolve;
  });
  const settings = callSettingsOf(null, options.settings);
  // Recorded from the first frame; setting up drops the recorder when the agent does not record calls.
  const leg = recordingLeg(transportLeg, () => ctx.recorder);
  const ctx: CallContext = {
    leg,
    recorder: createCallRecorder(transportLeg.clock),
    // The call's transfers join the log row's fields.
    options: { ...options, logData: () => ({ ...options.logData?.(), ...transferLogData(ctx) }) },
    deps,
    // Every line the call logs names it.
    log: deps.log.child({ callId: transportLeg.info.callId }),
    started: performance.now(),
    timings: [],
    resolveReady,
    resolveEnded,
    unexpected: (error, where) => failUnexpectedly(ctx, error, where),
    subject: null,
    model: null,
    settings,
    voice: null,
    earlyFrames: earlyFrames(),
    // The stages are made below, each given what it reads of the call.
    hearing: null as never,
    recognition: null as never,
    keys: null as never,
    finished: false,
    closing: false,
    bargeIns: 0,
    speech: null as never,
    captions: Boolean(options.onTranscript),
    caption: (role, text, final) => caption(ctx, role, text, final),
    answering: null,
    chain: Promise.resolve(),
    lastCallerActivity: performance.now(),
    lastAgentActivity: performance.now(),
    idlePrompted: false,
    unheardTurns: 0,
    transport: transportLeg,
    pendingTransfer: null,
    transfers: [],
    bridge: null,
    ticker: null,
    finishing: null,
  };
  ctx.speech = createAgentSpeech(ctx);
  ctx.recognition = createRecognition(ctx, transportLeg.onSaid !== undefined);
  ctx.hearing = createHearing(ctx, ctx.recognition, {
    agentTalking: () => agentBusy(ctx) && !ctx.speech.pressingKeys,
    hold: () => ctx.speech.hold(),
    release: () => ctx.speech.release(),
    bargeIn: () => bargeIn(ctx),
    heard(voiced) {
      ctx.lastCallerActivity = performance.now();
      if (voiced) ctx.idlePrompted = false;
    },
    turn: (turn) => heardTurn(ctx, turn),
  });
  ctx.keys = createCallerKeys(ctx, {
    typed() {
      ctx.lastCallerActivity = performance.now();
    },
    pressed() {
      ctx.lastCallerActivity = performance.now();
      ctx.idlePrompted = false;
      if (agentBusy(ctx)) bargeIn(ctx);
    },
    entered(digits) {
      caption(ctx, "caller", `[pressed ${digits}]`, true);
      queueTurn(ctx, () => answer(ctx, `[pressed ${digits}]`, null));
    },
  });
  /**
   * The caller's frames on their way to be heard, in order: a new step (noise suppression) is a
   * `FrameStage` added here (caller-frames.ts).
   */
  const callerFrames = frameChain([ctx.earlyFrames], (frame) => ctx.hearing.hear(frame));
  // What the transport and the clock call into: a failure in there ends this call, not the process. What
  // the call starts itself (its clock, its turns) carries its id to the process guard too.
  withUnexpectedContext({ callId: transportLeg.info.callId }, () => {
    ctx.ticker = setInterval(() => guarded(ctx, "housekeeping", () => housekeeping(ctx)), 250);
    guarded(ctx, "set-up", () => setUpCall(ctx));
  });
  leg.onAudio((frame) =>
    guarded(ctx, "caller audio", () => {
      if (ctx.bridge) ctx.bridge.fromCaller(frame);
      else if (!ctx.finished && !ctx.closing) callerFrames(frame);
    }),
  );
  leg.onDtmf((digit) =>
    guarded(ctx, "caller digit", () => {
      if (ctx.finished) return;
      if (ctx.bridge) ctx.bridge.digit(digit);
      else ctx.keys.press(digit);
    }),
  );
  // A far end that tells its words (the sandbox carrier's callee, its phone menu) is heard by them: the
  // recogniser makes little of synthesised phone audio.
  transportLeg.onSaid?.((text) => ctx.recognition.said(text));
  leg.onHangup(() =>
    guarded(ctx, "hang-up", () => {
      ctx.keys.hangup();
      const bridged = ctx.bridge;
      finish(ctx, bridged ? "transferred" : "caller-hangup", null, false);
      bridged?.callerLeft();
    }),
  );

  return {
    ready,
    ended,
    hangup(reason) {
      guarded(ctx, "hang-up", () => finish(ctx, "agent-ended", reason ?? null));
    },
  };
}
