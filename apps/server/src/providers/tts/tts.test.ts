import { describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { rms } from "../../audio/pcm.ts";
import { espeakTts } from "./espeak-ng.ts";
import type { TtsProvider } from "./tts-provider.ts";

/** One suite every synthesiser passes: audio at 16 kHz of a plausible length, voices, abort. */
const providers: TtsProvider[] = [espeakTts()];

async function collect(provider: TtsProvider, text: string, signal?: AbortSignal) {
  const chunks: Int16Array[] = [];
  let first: number | null = null;
  const started = performance.now();
  for await (const chunk of provider.synthesize(text, signal ? { signal } : {})) {
    first ??= performance.now() - started;
    chunks.push(chunk);
  }
  const samples = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    samples.set(chunk, at);
    at += chunk.length;
  }
  return { samples, chunks, firstMs: first };
}

describe.each(providers)("text to speech: $name", (provider) => {
  it("is available on this machine", () => {
    expect(provider.unavailable()).toBeNull();
  });

  it("speaks a sentence as 16 kHz audio, the first chunk quickly", async () => {
    const { samples, firstMs } = await collect(provider, "Yes, we see children from age three.");
    const seconds = samples.length / 16_000;
    expect(seconds).toBeGreaterThan(1);
    expect(seconds).toBeLessThan(5);
    expect(rms(samples)).toBeGreaterThan(500);
    expect(firstMs).toBeLessThan(within(500));
  });

  it("lists its voices, the default among them", async () => {
    const voices = await provider.voices();
    expect(voices.length).toBeGreaterThan(5);
    expect(voices.map((v) => v.id)).toContain(provider.defaultVoice);
    expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
  });

  it("falls back to the default voice for a voice it does not know", async () => {
    const { samples } = await collect(provider, "Hello.");
    const other = await collect({ ...provider }, "Hello.");
    expect(samples.length).toBeGreaterThan(0);
    expect(other.samples.length).toBe(samples.length);
    const unknown: Int16Array[] = [];
    for await (const chunk of provider.synthesize("Hello.", { voice: "no-such-voice" })) unknown.push(chunk);
    expect(unknown.reduce((n, c) => n + c.length, 0)).toBe(samples.length);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    const chunks: Int16Array[] = [];
    for await (const chunk of provider.synthesize("One. Two. Three. Four. Five. Six. Seven. Eight.", {
      signal: controller.signal,
    })) {
      chunks.push(chunk);
      controller.abort();
    }
    expect(chunks.length).toBe(1);
  });

  it("says nothing for an empty text", async () => {
    expect((await collect(provider, "   ")).samples.length).toBe(0);
  });
});

describe("espeak-ng voice files", () => {
  it("maps each language and alias to its voice file, which a variant applies to", async () => {
    const { parseEspeakVoiceFiles } = await import("./espeak-ng.ts");
    const files = parseEspeakVoiceFiles(
      [
        "Pty Language       Age/Gender VoiceName          File                 Other Languages",
        " 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)",
        " 5  es-419          --/M      Spanish_(Latin_America) roa/es-419           (es-mx 6)(es 6)",
        " 5  es              --/M      Spanish_(Spain)    roa/es",
      ].join("\n"),
    );
    expect(files.get("en-gb")).toBe("gmw/en");
    expect(files.get("en")).toBe("gmw/en");
    expect(files.get("es-mx")).toBe("roa/es-419");
    // The first entry for a name wins: "es" is Spain's own voice listed later, not Latin America's alias.
    expect(files.get("es-419")).toBe("roa/es-419");
  });

  it("a variant changes the sound: the agents' voices differ", async () => {
    const provider = espeakTts();
    const sound = async (voice: string) => {
      const chunks: Int16Array[] = [];
      for await (const chunk of provider.synthesize("Hello there.", { voice })) chunks.push(chunk);
      return Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
    };
    const [female, male] = [await sound("en-gb+f2"), await sound("en-gb+m1")];
    expect(female.equals(male)).toBe(false);
    provider.close?.();
  });
});
