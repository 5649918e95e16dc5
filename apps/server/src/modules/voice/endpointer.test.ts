import { describe, expect, it } from "vitest";
import { DEFAULT_CALL_SETTINGS } from "./call-settings.ts";
import { createEndpointer, createSentenceSplitter, type EndpointEvent, endsTurn } from "./endpointer.ts";

function run(pattern: string, settings = DEFAULT_CALL_SETTINGS): EndpointEvent[] {
  const endpointer = createEndpointer(settings);
  return [...pattern].flatMap((c) => endpointer.push(c === "1"));
}
const frames = (ms: number, c: "0" | "1") => c.repeat(ms / 20);

describe("endpointing (20 ms frames)", () => {
  it("starts at the first of 3 voiced frames and ends after the set silence", () => {
    const events = run(frames(200, "0") + frames(1000, "1") + frames(700, "0"));
    expect(events.map((e) => e.type)).toEqual(["start", "confirmed", "pause", "end"]);
    expect(events[0]).toEqual({ type: "start", frame: 10 });
    expect(events[1]).toEqual({ type: "confirmed", frame: 10 + 20 - 1 });
    const silenceFrames = DEFAULT_CALL_SETTINGS.endpointSilenceMs / 20;
    expect(events[3]).toMatchObject({
      type: "end",
      frame: 60 + silenceFrames - 1,
      turn: true,
      lastVoicedFrame: 59,
    });
  });

  it("ignores blips shorter than 3 frames and keeps a turn through short pauses", () => {
    expect(run(`0110${frames(1000, "0")}`)).toEqual([]);
    const events = run(frames(400, "1") + frames(400, "0") + frames(400, "1") + frames(700, "0"));
    expect(events.filter((e) => e.type === "end")).toHaveLength(1);
  });

  it("reports a lull after a backchannel and ends it as no turn when shorter than the minimum", () => {
    const events = run(frames(100, "1") + frames(700, "0"), {
      ...DEFAULT_CALL_SETTINGS,
      minUtteranceMs: 120,
    });
    expect(events.map((e) => e.type)).toEqual(["start", "lull", "end"]);
    expect(events.at(-1)).toMatchObject({ turn: false });
  });
});

describe("the quick turn end", () => {
  it("pauses after the short silence, resumes when the caller goes on, and can end the turn at a pause", () => {
    const endpointer = createEndpointer(DEFAULT_CALL_SETTINGS);
    const push = (pattern: string) => [...pattern].flatMap((c) => endpointer.push(c === "1"));
    const pauseFrames = DEFAULT_CALL_SETTINGS.quickTurnSilenceMs / 20;
    expect(push(frames(300, "1")).map((e) => e.type)).toEqual(["start"]);
    expect(push("0".repeat(pauseFrames)).map((e) => e.type)).toEqual(["pause"]);
    expect(push("1").map((e) => e.type)).toEqual(["resume"]);
    expect(push(frames(200, "1") + "0".repeat(pauseFrames)).map((e) => e.type)).toEqual([
      "confirmed",
      "pause",
    ]);
    expect(endpointer.endNow()).toMatchObject({ type: "end", turn: true });
    expect(endpointer.inUtterance).toBe(false);
    expect(endpointer.endNow()).toBeNull();
    // The silence that follows is not another turn's end.
    expect(push(frames(600, "0"))).toEqual([]);
  });

  it("is off at 0", () => {
    const events = run(frames(400, "1") + frames(700, "0"), {
      ...DEFAULT_CALL_SETTINGS,
      quickTurnSilenceMs: 0,
    });
    expect(events.map((e) => e.type)).toEqual(["start", "confirmed", "end"]);
  });

  it("takes a sentence as complete unless it stops on a word that needs more", () => {
    expect(endsTurn("do you see children")).toBe(true);
    expect(endsTurn("when are you open")).toBe(true);
    expect(endsTurn("i would like to")).toBe(false);
    expect(endsTurn("my number is")).toBe(false);
    expect(endsTurn("and um")).toBe(false);
    expect(endsTurn("hello")).toBe(false);
    expect(endsTurn("")).toBe(false);
  });
});

describe("sentences from streamed text", () => {
  it("cuts at sentence ends followed by space, not inside numbers", () => {
    const splitter = createSentenceSplitter();
    const out = ["Yes, it costs $3", ".50 per visit. Dr", ". Lee is in! Call ", "us?"].flatMap((d) =>
      splitter.push(d),
    );
    expect(out).toEqual(["Yes, it costs $3.50 per visit.", "Dr.", "Lee is in!"]);
    expect(splitter.flush()).toEqual(["Call us?"]);
  });
});
