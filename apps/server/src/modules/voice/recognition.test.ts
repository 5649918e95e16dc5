import { describe, expect, it } from "vitest";
import type { SttProvider, SttStream } from "../../providers/stt/stt-provider.ts";
import { DEFAULT_CALL_SETTINGS } from "./call-settings.ts";
import { createRecognition, understood } from "./recognition.ts";

/** The recognition stage with stand-in recognisers: what a turn gets when one answers, fails or hangs. */

function stage(stream: () => SttStream, tells = false) {
  const warnings: string[] = [];
  const stt: SttProvider = {
    name: "stand-in",
    hearsNarrowband: true,
    unavailable: () => null,
    close() {},
    start: stream,
  };
  const call = {
    settings: { ...DEFAULT_CALL_SETTINGS, recognitionTimeoutMs: 500 },
    deps: { stt },
    log: { warn: (_: object, message: string) => void warnings.push(message) },
    finished: false,
    closing: false,
  };
  return { recognition: createRecognition(call, tells), warnings };
}

describe("the recognition stage", () => {
  it("gives the recogniser's text and confidence", async () => {
    const { recognition } = stage(() => ({
      write() {},
      finish: async () => "book me in",
      confidence: () => 0.9,
      abort() {},
    }));
    expect(await recognition.final(recognition.start(), null)).toEqual({
      text: "book me in",
      confidence: 0.9,
    });
  });

  it("gives null, never a rejection, when the recogniser fails, cannot start or does not answer", async () => {
    const failing = stage(() => ({ write() {}, finish: () => Promise.reject(new Error("500")), abort() {} }));
    expect(await failing.recognition.final(failing.recognition.start(), null)).toBeNull();
    expect(failing.warnings).toEqual(["speech recognition failed"]);
    const broken = stage(() => {
      throw new Error("no recogniser");
    });
    expect(await broken.recognition.final(broken.recognition.start(), null)).toBeNull();
    let aborted = false;
    const hanging = stage(() => ({
      write() {},
      finish: () => new Promise<string>(() => {}),
      abort() {
        aborted = true;
      },
    }));
    const started = performance.now();
    expect(await hanging.recognition.final(hanging.recognition.start(), null)).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(490);
    expect(aborted).toBe(true);
    expect(hanging.warnings).toEqual(["speech recognition did not answer in time"]);
  });

  it("hears a line that tells its words as those words, once, and starts no recogniser for it", async () => {
    let started = 0;
    const { recognition } = stage(() => {
      started++;
      return { write() {}, finish: async () => "garbled", abort() {} };
    }, true);
    recognition.said("For sales press 1.");
    // The words are told as the far end starts saying them: a pause ends no turn early.
    expect(await recognition.recognise(recognition.start())).toBeNull();
    recognition.said("For support press 2.");
    expect(await recognition.final(recognition.start(), null)).toEqual({
      text: "For sales press 1. For support press 2.",
      confidence: null,
    });
    expect(await recognition.final(recognition.start(), null)).toEqual({ text: "", confidence: null });
    expect(started).toBe(0);
  });

  it("counts noise markers, empty text and low confidence as not understood", () => {
    expect(understood({ text: "[noise] (cough)", confidence: null })).toBe(false);
    expect(understood({ text: "yes please", confidence: 0.2 })).toBe(false);
    expect(understood({ text: "yes please", confidence: 0.8 })).toBe(true);
    expect(understood(null)).toBe(false);
  });
});
