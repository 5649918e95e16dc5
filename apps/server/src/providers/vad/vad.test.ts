import { beforeAll, describe, expect, it } from "vitest";
import { concat, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { rms, toFrames } from "../../audio/pcm.ts";
import { energyVad } from "./energy-vad.ts";
import { type VadProvider, vadWithFallback } from "./vad-provider.ts";
import { webrtcVad } from "./webrtc-vad.ts";

/** One suite every VAD passes: silence is not speech, a spoken question is, and where it is. */
const providers: VadProvider[] = [webrtcVad(), energyVad()];

let speech: Int16Array;
beforeAll(async () => {
  speech = await spokenFixture("Do you see children?");
});

describe.each(providers)("VAD $name", (provider) => {
  it("hears nothing in silence and quiet noise", async () => {
    const vad = await provider.createStream();
    const frames = toFrames(concat(silence(1000), silence(1000, 200)));
    expect(frames.filter((f) => vad.isSpeech(f)).length).toBe(0);
    vad.close();
  });

  it("finds the spoken question between silences", async () => {
    const vad = await provider.createStream();
    const frames = toFrames(concat(silence(1000, 100), speech, silence(1000, 100)));
    const decisions = frames.map((f) => vad.isSpeech(f));
    // Where the voice is, by level (the synthesised file has quiet lead-in and tail).
    const levels = toFrames(speech).map(rms);
    const voicedFrom = 50 + levels.findIndex((level) => level > 300);
    const voicedTo = 50 + levels.findLastIndex((level) => level > 300);
    const first = decisions.indexOf(true);
    const last = decisions.lastIndexOf(true);
    // Onset within 60 ms of where the voice begins; the end within 200 ms of where it stops.
    expect(first).toBeGreaterThanOrEqual(voicedFrom - 3);
    expect(first).toBeLessThanOrEqual(voicedFrom + 3);
    expect(last).toBeGreaterThanOrEqual(voicedTo - 10);
    expect(last).toBeLessThanOrEqual(voicedTo + 10);
    expect(decisions.filter(Boolean).length).toBeGreaterThan((voicedTo - voicedFrom) * 0.6);
    vad.close();
  });

  it("works frame by frame on many streams at once", async () => {
    const streams = await Promise.all([provider.createStream(), provider.createStream()]);
    const frames = toFrames(speech);
    const a = frames.map((f) => streams[0]?.isSpeech(f));
    const b = frames.map((f) => streams[1]?.isSpeech(f));
    expect(a).toEqual(b);
    for (const stream of streams) stream.close();
  });
});

describe("vadWithFallback", () => {
  it("uses the fallback when the first detector cannot start, and says so once", async () => {
    const broken: VadProvider = {
      name: "broken",
      createStream: () => Promise.reject(new Error("WebAssembly failed to load")),
    };
    const reports: unknown[] = [];
    const vad = vadWithFallback(broken, energyVad(), (error) => reports.push(error));
    const stream = await vad.createStream();
    await vad.createStream();
    expect(vad.name).toBe("energy");
    expect(reports).toHaveLength(1);
    const frames = toFrames(concat(silence(300), speech, silence(300)));
    expect(frames.map((frame) => stream.isSpeech(frame)).some(Boolean)).toBe(true);
  });

  it("uses the first detector while it works", async () => {
    const vad = vadWithFallback(webrtcVad(), energyVad());
    (await vad.createStream()).close();
    expect(vad.name).toBe("webrtc");
  });
});
