import { describe, expect, it } from "vitest";
import { DEFAULT_CALL_SETTINGS } from "./call-settings.ts";
import { createEndpointer, createSentenceSplitter, type EndpointEvent } from "./endpointer.ts";

function run(pattern: string, settings = DEFAULT_CALL_SETTINGS): EndpointEvent[] {
  const endpointer = createEndpointer(settings);
  return [...pattern].flatMap((c) => endpointer.push(c === "1"));
}
const frames = (ms: number, c: "0" | "1") => c.repeat(ms / 20);

describe("endpointing (20 ms frames)", () => {
  it("starts at the first of 3 voiced frames and ends after the set silence", () => {
    const events = run(frames(200, "0") + frames(1000, "1") + frames(700, "0"));
    expect(events.map((e) => e.type)).toEqual(["start", "confirmed", "end"]);
    expect(events[0]).toEqual({ type: "start", frame: 10 });
    expect(events[1]).toEqual({ type: "confirmed", frame: 10 + 20 - 1 });
    const silenceFrames = DEFAULT_CALL_SETTINGS.endpointSilenceMs / 20;
    expect(events[2]).toMatchObject({
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
