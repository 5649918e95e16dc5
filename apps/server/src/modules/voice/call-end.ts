/**
 * The end of a call, whatever ends it: everything stopped at once (model stream, speech, recogniser, timers,
 * the leg unless it hung up itself), then, after the turn in progress, the conversation ended and its log
 * row written with the call's outcome, and the session's promises resolved.
 */
import { REDACTION_LABELS } from "@switchboard/core";
import { reportUnexpected } from "../../process-guard.ts";
import { background } from "./call-guard.ts";
import type { CallOutcome } from "./call-session-types.ts";
import type { Call } from "./call-stages.ts";
import type { TurnTiming } from "./caller-hearing.ts";

export function finish(ctx: Call, outcome: CallOutcome, error: string | null = null, hangup = true) {
  const { leg, log } = ctx;
  if (ctx.finishing) return;
  ctx.finished = true;
  // The recording ends here, at the hang-up, whatever is still queued or said after.
  ctx.recorder?.end();
  ctx.clock.stop();
  ctx.keys.stop();
  ctx.finishing = store(ctx, outcome, error).catch((failure: unknown) => {
    log.error({ err: failure }, "could not end a call cleanly");
    ctx.resolveReady(null);
    ctx.resolveEnded({
      outcome,
      conversationUuid: null,
      error,
      turns: [...ctx.turns.timings],
      bargeIns: 0,
      recordingUrl: null,
    });
  });
  // Stopping each part is independent: one that throws does not keep the others running.
  const stop = (where: string, work: () => void) => {
    try {
      work();
    } catch (failure) {
      log.error({ err: failure, where }, "could not stop part of a call");
    }
  };
  stop("model", () => ctx.turns.abort());
  stop("speech", () => ctx.speech.stop());
  stop("recogniser", () => ctx.hearing.stop());
  if (hangup) stop("hangup", () => leg.hangup(error ?? outcome));
}

/** After the turn in progress: the conversation ended, its log row written, the session's promises resolved. */
async function store(ctx: Call, outcome: CallOutcome, error: string | null) {
  const { leg, deps, log } = ctx;
  await ctx.turns.settled();
  const { subject } = ctx;
  const conversationUuid = subject?.conversation.uuid ?? null;
  let recordingUrl: string | null = null;
  if (subject) {
    try {
      const recording = await storeRecording(ctx);
      recordingUrl = recording.url;
      const conversation = await deps.turns.end(subject);
      const row = deps.turns.logRow(subject, conversation);
      const warning = narrowbandWarning(ctx);
      await deps.conversations.upsertLog({
        ...row,
        data: {
          ...row.data,
          callOutcome: outcome,
          transport: leg.info.transport,
          narrowband: leg.info.narrowband,
          bargeIns: ctx.turns.bargeIns,
          ...(ctx.turns.timings.length > 0 ? { turnTimings: ctx.turns.timings.map(turnStages) } : {}),
          ...(warning ? { warning } : {}),
          ...ctx.options.logData?.(),
          ...(recordingUrl ? { recordingUrl } : {}),
          ...(recording.silencedTurns > 0 ? { recordingSilencedTurns: recording.silencedTurns } : {}),
        },
      });
    } catch (failure) {
      log.error({ err: failure, uuid: conversationUuid }, "could not store the end of a call");
    }
  }
  try {
    ctx.hearing.close();
  } catch (failure) {
    log.error({ err: failure }, "could not close a call's voice detector");
  }
  ctx.resolveReady(conversationUuid);
  ctx.resolveEnded({
    outcome,
    conversationUuid,
    error,
    turns: [...ctx.turns.timings],
    bargeIns: ctx.turns.bargeIns,
    recordingUrl,
  });
}

/**
 * Where a caller turn's wait went, in ms from the caller's last voiced frame: the turn ended (endpointing),
 * its text recognised, the model's first text, the first synthesised audio, the first answer frame sent
 * (null: the turn never got that far). Kept in the call's log row, so a slow turn can be taken apart.
 */
function turnStages(timing: TurnTiming) {
  const after = (at: number | null) =>
    at === null || at === 0 ? null : Math.round(at - timing.lastVoicedAt);
  return {
    endpointMs: after(timing.endpointAt),
    recognisedMs: after(timing.sttAt),
    firstTokenMs: after(timing.firstTokenAt),
    firstAudioMs: after(timing.firstAudioAt),
    answerMs: after(timing.firstFrameAt),
  };
}

/** Shown with a call whose phone audio its recogniser cannot hear. */
export const NARROWBAND_WARNING =
  "Offline recognition cannot hear 8 kHz phone audio: set STT_PROVIDER=deepgram or openai.";

function narrowbandWarning(ctx: Call): string | null {
  return ctx.leg.info.narrowband && !ctx.deps.stt.hearsNarrowband ? NARROWBAND_WARNING : null;
}

/**
 * Something in the call's code failed that should not have (call-guard.ts): reported with the call's id
 * (logged and counted, process-guard.ts), and the call ends as failed. Nothing of it reaches the process.
 */
export function failUnexpectedly(ctx: Call, error: unknown, where: string) {
  reportUnexpected(error, { callId: ctx.leg.info.callId, where });
  try {
    finish(ctx, "failed", "Something went wrong on our side.");
  } catch (failure) {
    reportUnexpected(failure, { callId: ctx.leg.info.callId, where: `${where}, ending the call` });
  }
}

/** Writes the call's recording (agents that record calls) to the file storage; answers its URL. */
async function storeRecording(ctx: Call): Promise<{ url: string | null; silencedTurns: number }> {
  const { recorder, deps } = ctx;
  ctx.recorder = null;
  if (!recorder || !deps.storage || !ctx.settings.recordCalls || recorder.seconds() === 0)
    return { url: null, silencedTurns: 0 };
  try {
    const silencedTurns = await silenceRedacted(ctx, recorder);
    const wav = recorder.wav();
    const stored = await deps.storage.put("recordings", "wav", Buffer.from(wav.buffer), "audio/wav");
    return { url: stored.url, silencedTurns };
  } catch (failure) {
    ctx.log.error({ err: failure }, "could not store a call's recording");
    return { url: null, silencedTurns: 0 };
  }
}

/**
 * Redaction in the recording: a turn whose stored text had personal data replaced (the organisation's
 * redaction) is silenced. Recognisers give no word timings here, so the whole turn goes: a caller turn
 * from the caller's previous stored turn to this one's, an agent turn from the caller turn it answered to
 * the caller's next. Answers the turns silenced.
 */
async function silenceRedacted(ctx: Call, recorder: NonNullable<Call["recorder"]>) {
  const subject = ctx.subject;
  if (!subject || !(await ctx.deps.conversations.redactionOf(subject.room.orgId))) return 0;
  const uuid = subject.conversation.uuid;
  const labels = Object.values(REDACTION_LABELS);
  const messages = await ctx.deps.conversations.firstMessages(uuid, 2000);
  const callerTimes = messages.filter((m) => m.role === "user").map((m) => m.createdAt.getTime());
  let turns = 0;
  for (const message of messages) {
    if (!labels.some((label) => message.text.includes(label))) continue;
    const at = message.createdAt.getTime();
    const before = callerTimes.filter((t) => t < at).at(-1) ?? 0;
    if (message.role === "user") recorder.silence("caller", before, at);
    else if (message.role === "assistant")
      recorder.silence("agent", before, callerTimes.find((t) => t > at) ?? Number.POSITIVE_INFINITY);
    else continue;
    turns++;
  }
  return turns;
}

/** The call cannot go on (no agent, no model, no speech tools, a setup error): logged, then ended. */
export function fail(ctx: Call, message: string) {
  ctx.log.error({ transport: ctx.leg.info.transport }, `call refused: ${message}`);
  finish(ctx, "failed", message);
}

/** The call's time is up (call-limits.ts): no more turns; the agent says goodbye, then the call ends. */
export function timeLimit(ctx: Call) {
  ctx.closing = true;
  ctx.turns.abort();
  ctx.hearing.stop();
  ctx.speech.clearQueued();
  background(
    ctx,
    "time limit",
    (async () => {
      await ctx.turns
        .sayLine(ctx.settings.maxCallMessage)
        .catch((error: unknown) => ctx.log.error({ err: error }, "could not say goodbye at the time limit"));
      await ctx.speech.drained();
      finish(ctx, "max-length");
    })(),
  );
}
