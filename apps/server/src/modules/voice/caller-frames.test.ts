import { describe, expect, it } from "vitest";
import { type FrameStage, frameChain } from "./caller-frames.ts";
import { earlyFrames } from "./early-frames.ts";

/** The caller's frame stages without a transport: frames in, what reaches hearing out. */

const frame = (value: number) => new Int16Array([value]);

describe("the caller's frame stages", () => {
  it("holds frames until the call is set up, then hands them on in order, later ones straight through", () => {
    const heard: number[] = [];
    const early = earlyFrames();
    const push = frameChain([early], (f) => heard.push(f[0] as number));
    push(frame(1));
    push(frame(2));
    expect(heard).toEqual([]);
    early.release();
    push(frame(3));
    expect(heard).toEqual([1, 2, 3]);
  });

  it("runs a stage added to the list on every frame, after those before it", () => {
    const heard: number[] = [];
    const early = earlyFrames();
    // A stand-in for noise suppression: one file implementing FrameStage.
    const halve: FrameStage = { name: "halve", process: (f, next) => next(f.map((s) => s / 2)) };
    const push = frameChain([early, halve], (f) => heard.push(f[0] as number));
    push(frame(8));
    early.release();
    push(frame(4));
    expect(heard).toEqual([4, 2]);
  });

  it("drops what it held when the call ends before it was set up", () => {
    const heard: number[] = [];
    const early = earlyFrames();
    const push = frameChain([early], (f) => heard.push(f[0] as number));
    push(frame(1));
    early.close?.();
    early.release();
    expect(heard).toEqual([]);
  });
});
