/**
 * The first frame stage on the caller's audio: frames that arrive while the call is set up (the agent,
 * its model, the VAD and the conversation are loaded; a busy server takes a second or more) are held, and
 * heard in order once the greeting is queued (`release`), so a caller who talks at once is not cut short.
 */
import type { FrameStage } from "./caller-frames.ts";

export type EarlyFrames = FrameStage & {
  /** The call is set up: what was held goes on, in order, and later frames pass straight through. */
  release(): void;
};

export function earlyFrames(): EarlyFrames {
  let held: Int16Array[] | null = [];
  let next: ((frame: Int16Array) => void) | null = null;
  return {
    name: "early frames",
    process(frame, pass) {
      if (!held) return pass(frame);
      held.push(frame);
      next = pass;
    },
    release() {
      const frames = held ?? [];
      held = null;
      if (next) for (const frame of frames) next(frame);
      next = null;
    },
    close() {
      held = null;
      next = null;
    },
  };
}
