import { describe, expect, it } from "vitest";
import { spokenFixture } from "../../test/voice-fixtures.ts";
import { createCodecSession } from "../modules/voice/sip/audio-codec.ts";
import { FRAME_SAMPLES } from "./audio-format.ts";
import { createDtmfDetector, dtmfFrames } from "./dtmf.ts";
import { toFrames } from "./pcm.ts";

function heard(frames: Int16Array[]): string {
  const detector = createDtmfDetector();
  return frames.map((frame) => detector.push(frame) ?? "").join("");
}

/** Over a telephone line: to 8 kHz G.711 μ-law and back, as Twilio and most trunks carry it. */
function overG711(frames: Int16Array[]): Int16Array[] {
  const codec = createCodecSession("PCMU");
  return frames.map((frame) => codec.decode(codec.encode(frame)));
}

/** Deterministic noise at about -40 dBFS under the tones. */
function withNoise(frames: Int16Array[]): Int16Array[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff - 0.5;
  };
  return frames.map((frame) => frame.map((sample) => sample + Math.round(next() * 600)));
}

describe("in-band DTMF", () => {
  it("plays every key as 20 ms frames that a detector hears back, once each", () => {
    const keys = "0123456789*#ABCD";
    const frames = dtmfFrames(keys);
    expect(frames.every((frame) => frame.length === FRAME_SAMPLES)).toBe(true);
    // 100 ms of tone and 100 ms of silence a key.
    expect(frames.length).toBe(keys.length * 10);
    expect(heard(frames)).toBe(keys);
  });

  it("is heard after a G.711 telephone line with noise, and a repeated key counts twice", () => {
    expect(heard(withNoise(overG711(dtmfFrames("5551#"))))).toBe("5551#");
  });

  it("hears no key in speech or silence", async () => {
    const speech = await spokenFixture("Press one for sales, two for support, or hold for an operator.");
    expect(heard(toFrames(speech))).toBe("");
    expect(heard(overG711(toFrames(speech)))).toBe("");
    expect(heard([new Int16Array(FRAME_SAMPLES), new Int16Array(FRAME_SAMPLES)])).toBe("");
  });

  it("refuses a key that is not on a keypad", () => {
    expect(() => dtmfFrames("1x")).toThrow("x is not a keypad key");
  });
});
