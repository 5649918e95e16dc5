import { withUnexpectedContext } from "../../process-guard.ts";
import { createAgentSpeech } from "./agent-speech.ts";
import { captionObserver } from "./call-captions.ts";
import { callControls } from "./call-controls.ts";
import { failUnexpectedly, finish, timeLimit } from "./call-end.ts";
import { guarded } from "./call-guard.ts";
import type { CallLeg } from "./call-leg.ts";
import { createCallClock } from "./call-limits.ts";
import { createCallRecorder, recordingLeg } from "./call-recording.ts";
import type {
  CallSession,
  CallSessionDeps,
  CallShell,
  CallSummary,
  StartCallOptions,
} from "./call-session-types.ts";
import { callSettingsOf } from "./call-settings.ts";
import { setUpCall } from "./call-setup.ts";
import type { Call } from "./call-stages.ts";
import { createTransfers } from "./call-transfer.ts";
import { createTurns } from "./call-turns.ts";
import { type FrameStage, frameChain } from "./caller-frames.ts";
import { createHearing } from "./caller-hearing.ts";
import { createCallerKeys } from "./caller-keys.ts";
import { earlyFrames } from "./early-frames.ts";
import { endsTurn } from "./endpointer.ts";
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
 * the caller's speech onset the agent's queued audio is cleared at once (held); if the speech lasts
 * `bargeInMinSpeechMs` the answer is dropped, the model stream cancelled and the stored text cut to what was
 * heard, otherwise (a backchannel) the agent goes on where it stopped.
 *
 * The call is a pipeline of stages, each owning its state (call-stages.ts, docs/voice.md): transport leg →
 * frame stages (early-frames.ts, …) → hearing (caller-hearing.ts: VAD, endpointing) → recognition
 * (recognition.ts) → turns (call-turns.ts) → speech (agent-speech.ts) → transport leg; beside them keys
 * (caller-keys.ts), transfers (call-transfer.ts) and the clock (call-limits.ts). This file makes the shell
 * and the stages and wires their events; call-setup.ts sets the call up and call-end.ts ends it.
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
  // Every line the call logs names it.
  const log = deps.log.child({ callId: transportLeg.info.callId });
  const shell: CallShell = {
    // Recorded from the first frame; setting up drops the recorder when the agent does not record calls.
    leg: recordingLeg(transportLeg, () => shell.recorder),
    transport: transportLeg,
    recorder: createCallRecorder(transportLeg.clock),
    // The call's transfers join the log row's fields.
    options: { ...options, logData: () => ({ ...options.logData?.(), ...transfer.logData() }) },
    deps,
    log,
    started: performance.now(),
    subject: null,
    model: null,
    settings: callSettingsOf(null, options.settings),
    voice: null,
    finished: false,
    closing: false,
    captions: Boolean(options.onTranscript),
    caption: captionObserver(options.onTranscript, log),
    end: (outcome, error = null, hangup = true) => finish(call, outcome, error, hangup),
    unexpected: (error, where) => failUnexpectedly(call, error, where),
    resolveReady,
    resolveEnded,
    finishing: null,
  };

  // The stages, each given what it reads of the call and what it tells.
  const speech = createAgentSpeech(shell);
  const recognition = createRecognition(shell, transportLeg.onSaid !== undefined);
  const transfer = createTransfers({
    shell,
    agentSpeaking: () => speech.speaking,
    callerHeard: () => clock.callerHeard(false),
  });
  const turns = createTurns({
    shell,
    speech,
    transfer,
    tells: recognition.tells,
    controls: () => callControls(call),
  });
  const hearing = createHearing(
    shell,
    recognition,
    {
      agentTalking: () => turns.busy && !speech.pressingKeys,
      hold: () => speech.hold(),
      release: () => speech.release(),
      bargeIn: () => turns.bargeIn(),
      heard: (voiced) => clock.callerHeard(voiced),
      turn: (turn) => turns.heard(turn),
    },
    // Whether a turn is over at a short pause: the words so far; a turn-detection model goes here.
    endsTurn,
  );
  const keys = createCallerKeys(shell, {
    typed: () => clock.callerHeard(false),
    pressed() {
      clock.callerHeard(true);
      if (turns.busy) turns.bargeIn();
    },
    entered: (digits) => turns.pressed(digits),
  });
  const clock = createCallClock(shell, {
    agentBusy: () => turns.busy,
    agentLastSent: () => speech.lastSentAt,
    callerSpeaking: () => hearing.speaking,
    timeUp: () => timeLimit(call),
    idle: () => turns.queue(() => turns.sayLine(shell.settings.idlePrompt)),
  });
  const early = earlyFrames();
  const call: Call = Object.assign(shell, {
    earlyFrames: early,
    hearing,
    recognition,
    keys,
    turns,
    speech,
    transfer,
    clock,
  });
  /**
   * The caller's frames on their way to be heard, in order (caller-frames.ts): a new step on the caller's
   * audio (noise suppression) is one file implementing `FrameStage`, added to this list.
   */
  const frameStages: FrameStage[] = [early];
  const callerFrames = frameChain(frameStages, (frame) => hearing.hear(frame));

  // What the transport and the clock call into: a failure in there ends this call, not the process. What
  // the call starts itself (its clock, its turns) carries its id to the process guard too.
  withUnexpectedContext({ callId: transportLeg.info.callId }, () => {
    clock.start();
    guarded(call, "set-up", () => setUpCall(call));
  });
  const { leg } = call;
  leg.onAudio((frame) =>
    guarded(call, "caller audio", () => {
      if (transfer.bridge) transfer.bridge.fromCaller(frame);
      else if (!call.finished && !call.closing) callerFrames(frame);
    }),
  );
  leg.onDtmf((digit) =>
    guarded(call, "caller digit", () => {
      if (call.finished) return;
      if (transfer.bridge) transfer.bridge.digit(digit);
      else keys.press(digit);
    }),
  );
  // A far end that tells its words (the sandbox carrier's callee, its phone menu) is heard by them: the
  // recogniser makes little of synthesised phone audio.
  transportLeg.onSaid?.((text) => recognition.said(text));
  leg.onHangup(() =>
    guarded(call, "hang-up", () => {
      keys.hangup();
      const bridged = transfer.bridge;
      finish(call, bridged ? "transferred" : "caller-hangup", null, false);
      bridged?.callerLeft();
    }),
  );

  return {
    ready,
    ended,
    hangup(reason) {
      guarded(call, "hang-up", () => finish(call, "agent-ended", reason ?? null));
    },
  };
}
