/** Live captions of a call: the `onTranscript` observer, called safely, and the agent's final captions. */
import type { CallContext, Speech } from "./call-session-types.ts";

export function caption(
  ctx: CallContext,
  role: "caller" | "agent" | "destination",
  text: string,
  final: boolean,
) {
  const { onTranscript } = ctx.options;
  if (!onTranscript || (!text && !final)) return;
  try {
    onTranscript(role, text, final);
  } catch (error) {
    ctx.log.warn({ err: error }, "transcript observer failed");
  }
}

/** The agent's final caption of a speech once the leg has played it (unless a barge-in cut it first). */
export async function finalCaption(ctx: CallContext, current: Speech) {
  if (!ctx.options.onTranscript) return;
  while (!ctx.finished && ctx.speech === current && (ctx.paused || ctx.leg.queuedFrames() > 0))
    await new Promise((resolve) => setTimeout(resolve, 20));
  if (current.captionDone) return;
  current.captionDone = true;
  caption(ctx, "agent", current.captionText, true);
}
