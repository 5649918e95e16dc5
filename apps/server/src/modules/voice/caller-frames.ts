/**
 * The caller's audio on its way to be heard: a list of frame stages (call-session.ts), each taking one
 * 20 ms frame (PCM16, 16 kHz) and handing what the next should get to `next`, the last to the hearing stage
 * (VAD and endpointing, caller-hearing.ts). A new step on the caller's audio (noise suppression, an echo
 * canceller, a gain) is one file exporting a `FrameStage`, added to that list (docs/voice.md).
 */
export type FrameStage = {
  /** Names the stage in the call's log when it fails. */
  readonly name: string;
  /**
   * One caller frame in, in order: call `next` with what goes on (the frame, a cleaned copy of it), not at
   * all (dropped), or later (held, then released in order). Runs in the call's audio path: keep it quick;
   * what it throws ends this call only.
   */
  process(frame: Int16Array, next: (frame: Int16Array) => void): void;
  /** The call ended: release what the stage holds (a model's state, a worker). */
  close?(): void;
};

/** The stages chained in order, the last handing to `sink`: what a caller frame is given to. */
export function frameChain(stages: readonly FrameStage[], sink: (frame: Int16Array) => void) {
  return stages.reduceRight<(frame: Int16Array) => void>(
    (next, stage) => (frame) => stage.process(frame, next),
    sink,
  );
}
