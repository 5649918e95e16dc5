/** Live captions of a call: the `onTranscript` observer, called safely (an observer that throws is logged). */
import type { StartCallOptions } from "./call-session-types.ts";

export function captionObserver(
  onTranscript: StartCallOptions["onTranscript"],
  log: { warn(object: object, message: string): void },
) {
  return (role: "caller" | "agent" | "destination", text: string, final: boolean) => {
    if (!onTranscript || (!text && !final)) return;
    try {
      onTranscript(role, text, final);
    } catch (error) {
      log.warn({ err: error }, "transcript observer failed");
    }
  };
}
