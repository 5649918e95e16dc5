/**
 * The end of a call, whatever ends it: everything stopped at once (model stream, speech, recogniser, timers,
 * the leg unless it hung up itself), then, after the turn in progress, the conversation ended and its log
 * row written with the call's outcome, and the session's promises resolved.
 */
import { stopSpeech } from "./agent-speech.ts";
import type { CallContext, CallOutcome } from "./call-session-types.ts";

export function finish(ctx: CallContext, outcome: CallOutcome, error: string | null = null, hangup = true) {
  const { leg, deps, log } = ctx;
  if (ctx.finishing) return;
  ctx.finished = true;
  if (ctx.ticker) clearInterval(ctx.ticker);
  if (ctx.dtmfTimer) clearTimeout(ctx.dtmfTimer);
  ctx.answering?.controller.abort();
  if (ctx.speech) stopSpeech(ctx, ctx.speech);
  ctx.utterance?.stt.abort();
  ctx.utterance = null;
  if (hangup) leg.hangup(error ?? outcome);
  ctx.finishing = (async () => {
    await ctx.chain.catch(() => {});
    const { subject } = ctx;
    const conversationUuid = subject?.conversation.uuid ?? null;
    let recordingUrl: string | null = null;
    if (subject) {
      try {
        recordingUrl = await storeRecording(ctx);
        const conversation = await deps.turns.end(subject);
        const row = deps.turns.logRow(subject, conversation);
        await deps.conversations.upsertLog({
          ...row,
          data: {
            ...row.data,
            callOutcome: outcome,
            transport: leg.info.transport,
            narrowband: leg.info.narrowband,
            bargeIns: ctx.bargeIns,
            ...ctx.options.logData?.(),
            ...(recordingUrl ? { recordingUrl } : {}),
          },
        });
      } catch (failure) {
        log.error({ err: failure, uuid: conversationUuid }, "could not store the end of a call");
      }
    }
    ctx.vad?.close();
    ctx.resolveReady(conversationUuid);
    ctx.resolveEnded({
      outcome,
      conversationUuid,
      error,
      turns: ctx.timings,
      bargeIns: ctx.bargeIns,
      recordingUrl,
    });
  })();
}

/** Writes the call's recording (agents that record calls) to the file storage; answers its URL. */
async function storeRecording(ctx: CallContext): Promise<string | null> {
  const { recorder, deps } = ctx;
  ctx.recorder = null;
  if (!recorder || !deps.storage || !ctx.settings.recordCalls || recorder.seconds() === 0) return null;
  try {
    const wav = recorder.wav();
    const stored = await deps.storage.put("recordings", "wav", Buffer.from(wav.buffer), "audio/wav");
    return stored.url;
  } catch (failure) {
    ctx.log.error({ err: failure }, "could not store a call's recording");
    return null;
  }
}

/** The call cannot go on (no agent, no model, no speech tools, a setup error): logged, then ended. */
export function fail(ctx: CallContext, message: string) {
  const { info } = ctx.leg;
  ctx.log.error({ callId: info.callId, transport: info.transport }, `call refused: ${message}`);
  finish(ctx, "failed", message);
}
