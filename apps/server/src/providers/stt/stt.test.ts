import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { concat, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { toFrames } from "../../audio/pcm.ts";
import { pocketsphinxStt } from "./pocketsphinx.ts";
import type { SttProvider } from "./stt-provider.ts";

/** One suite every recogniser passes: it hears a question, nothing in silence, and stops when aborted. */
const providers: SttProvider[] = [pocketsphinxStt()];

let question: Int16Array;
beforeAll(async () => {
  question = await spokenFixture("Do you see children?");
});
afterAll(() => {
  for (const provider of providers) provider.close();
});

function recognise(provider: SttProvider, samples: Int16Array) {
  const stream = provider.start();
  for (const frame of toFrames(samples)) stream.write(frame);
  return stream.finish();
}

describe.each(providers)("speech to text: $name", (provider) => {
  it("is available on this machine", () => {
    expect(provider.unavailable()).toBeNull();
  });

  it("recognises a spoken question", async () => {
    expect(await recognise(provider, concat(silence(200), question, silence(300)))).toBe(
      "do you see children",
    );
  });

  it("answers nothing for silence", async () => {
    expect(await recognise(provider, silence(1000))).toBe("");
  });

  it("recognises utterances one after another, ~0.2 s after the last frame when warm", async () => {
    const words = await recognise(provider, question);
    expect(words).toBe("do you see children");
    await new Promise((resolve) => setTimeout(resolve, 800)); // the next decoder loads meanwhile
    const stream = provider.start();
    for (const frame of toFrames(question)) stream.write(frame);
    const started = performance.now();
    expect(await stream.finish()).toBe("do you see children");
    expect(performance.now() - started).toBeLessThan(within(1500));
  });

  it("aborts an utterance nobody wants", async () => {
    const stream = provider.start();
    stream.write(question.subarray(0, 3200));
    stream.abort();
    await expect(stream.finish()).rejects.toThrow();
  });
});
