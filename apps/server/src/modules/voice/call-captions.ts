/** Live captions of a call: the `onTranscript` observer, called safely. */
import type { CallContext } from "./call-session-types.ts";

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
