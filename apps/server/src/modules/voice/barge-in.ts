/**
 * Barge-in: at the caller's speech onset over the agent, the leg's queue is cleared at once (paused); a
 * backchannel resumes where it stopped; a real interruption drops the answer and cuts the stored text (and
 * the caption) to what the caller heard.
 */
import { send, stopSpeech } from "./agent-speech.ts";
import { caption } from "./call-captions.ts";
import type { CallContext, Speech } from "./call-session-types.ts";

/** The caller started talking over the agent: silence at once, keep what is left to resume. */
export function pause(ctx: CallContext) {
  if (ctx.paused) return;
  ctx.paused = true;
  const queued = ctx.leg.queuedFrames();
  ctx.leg.clearAudio();
  if (ctx.speech) ctx.speech.sent = Math.max(0, ctx.speech.sent - queued);
}

export function resume(ctx: CallContext) {
  if (!ctx.paused) return;
  ctx.paused = false;
  const { speech } = ctx;
  if (speech && speech.sent < speech.frames.length) {
    send(ctx, speech.frames.slice(speech.sent));
    speech.sent = speech.frames.length;
  }
}

/** What of a speech the caller heard: whole sentences played, and the played share of the one cut. */
function heardText(current: Speech): string {
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

/** The caller interrupted for real: drop the answer and the audio, keep only what was heard. */
export function bargeIn(ctx: CallContext) {
  ctx.bargeIns++;
  pause(ctx);
  ctx.paused = false;
  ctx.answering?.controller.abort();
  const current = ctx.speech;
  if (!current) return;
  current.spokenText = heardText(current);
  if (!current.captionDone) {
    current.captionDone = true;
    caption(ctx, "agent", current.spokenText, true);
  }
  stopSpeech(ctx, current);
  void cutMessage(ctx, current);
}

async function cutMessage(ctx: CallContext, current: Speech) {
  const message = await current.stored;
  if (!message) return;
  await ctx.deps.voice
    .cutMessage(message.id, current.spokenText)
    .catch((error: unknown) => ctx.log.error({ err: error }, "could not cut an interrupted message"));
}
