import { describe, expect, it } from "vitest";
import { FRAME_SAMPLES } from "../../audio/audio-format.ts";
import { simulatedLine } from "./simulated-line.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps this process busy for `ms`, as a CPU-bound request or a slow recogniser would. */
function stall(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe("a simulated line", () => {
  it("keeps the wall clock's pace while the process is busy: a late tick delivers every frame due", async () => {
    let farEnd = 0;
    const heardAt: number[] = [];
    const line = simulatedLine({
      idPrefix: "test",
      from: "+15035550100",
      to: "+15035550101",
      step: () => {
        farEnd++;
        return new Int16Array(FRAME_SAMPLES);
      },
      onEnd: () => {},
    });
    const frames: Int16Array[] = [];
    line.onAudio((frame) => frames.push(frame));
    line.onPlayed?.((_frame, at) => heardAt.push(at));
    for (let i = 0; i < 50; i++) line.sendAudio(new Int16Array(FRAME_SAMPLES));
    const started = performance.now();
    await sleep(100);
    stall(300);
    await sleep(100);
    const elapsed = performance.now() - started;
    line.hangup();
    // One frame a tick would have given about 10 in the 500 ms (the 300 ms stall one tick): every 20 ms counts.
    expect(frames.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 20) - 3);
    expect(frames.length).toBeLessThanOrEqual(Math.ceil(elapsed / 20) + 1);
    expect(farEnd).toBe(frames.length);
    // The agent's frames were played one slot after another, 20 ms apart, however late they were handed on.
    const gaps = heardAt.slice(1).map((at, i) => Math.round(at - (heardAt[i] as number)));
    expect(new Set(gaps)).toEqual(new Set([20]));
  });

  it("loses what a stall longer than half a second held, as a jitter buffer would", async () => {
    const frames: Int16Array[] = [];
    const line = simulatedLine({
      idPrefix: "test",
      from: "+15035550100",
      to: "+15035550101",
      step: () => new Int16Array(FRAME_SAMPLES),
      onEnd: () => {},
    });
    line.onAudio((frame) => frames.push(frame));
    const started = performance.now();
    stall(1200);
    await sleep(30);
    const due = Math.floor((performance.now() - started) / 20);
    line.hangup();
    // The first tick after the stall brought the last 500 ms (25 frames); the 35 before were lost.
    expect(frames.length).toBeGreaterThanOrEqual(25);
    expect(frames.length).toBeLessThanOrEqual(due - 30);
  });
});
