import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { bytesToSamples, createResampler } from "../../modules/voice/audio.ts";
import { SAMPLE_RATE } from "../../modules/voice/call-leg.ts";
import type { TtsProvider, TtsVoice } from "./tts-provider.ts";

const BINARY = "/usr/bin/espeak-ng";
const HEADER_BYTES = 44;

/** Parses `espeak-ng --voices` (Pty Language Age/Gender VoiceName File Other Languages). */
export function parseEspeakVoices(listing: string): TtsVoice[] {
  const voices: TtsVoice[] = [];
  for (const line of listing.split("\n").slice(1)) {
    const columns = line.trim().split(/\s+/);
    const [, language, ageGender, name, file] = columns;
    // mbrola voices need Debian's mbrola (not in bookworm); one entry per language.
    if (!language || !ageGender || !name || !file || file.startsWith("mb/")) continue;
    if (voices.some((voice) => voice.id === language)) continue;
    const gender = ageGender.endsWith("F") ? "female" : ageGender.endsWith("M") ? "male" : null;
    voices.push({ id: language, name: name.replace(/_/g, " "), language, gender });
  }
  return voices;
}

/**
 * Debian's espeak-ng as a child process per sentence: text on stdin, a WAV stream (22.05 kHz) on stdout,
 * resampled to 16 kHz as it arrives. First audio in ~10 ms; robotic but clear. Voices are its languages.
 */
export function espeakTts(options: { binary?: string; wordsPerMinute?: number } = {}): TtsProvider {
  const binary = options.binary ?? BINARY;
  const speed = String(options.wordsPerMinute ?? 175);
  let listed: Promise<TtsVoice[]> | null = null;

  const provider: TtsProvider = {
    name: "espeak-ng",
    defaultVoice: "en-us",
    unavailable() {
      return existsSync(binary)
        ? null
        : "Speech synthesis needs Debian's espeak-ng: run `node scripts/ensure-voice-tools.mjs` (as root) or `sudo apt-get install -y espeak-ng`.";
    },
    voices() {
      listed ??= promisify(execFile)(binary, ["--voices"]).then(({ stdout }) => parseEspeakVoices(stdout));
      return listed;
    },
    async *synthesize(text, { voice, signal } = {}) {
      if (signal?.aborted || !text.trim()) return;
      const known = voice ? (await provider.voices()).some((v) => v.id === voice) : false;
      const child = spawn(
        binary,
        ["--stdout", "-b", "1", "-s", speed, "-v", known ? (voice as string) : "en-us"],
        {
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      const stop = () => child.kill("SIGKILL");
      signal?.addEventListener("abort", stop, { once: true });
      let errors = "";
      child.stderr.on("data", (chunk: Buffer) => {
        errors = (errors + chunk.toString()).slice(-500);
      });
      const exited = new Promise<number | null>((resolve) => {
        child.on("close", (code) => resolve(code));
        child.on("error", () => resolve(-1));
      });
      child.stdin.on("error", () => {});
      child.stdin.end(text);
      let header = Buffer.alloc(0);
      let resample: ((input: Int16Array) => Int16Array) | null = null;
      let odd: Buffer | null = null;
      try {
        for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
          if (signal?.aborted) return;
          let data = chunk;
          if (!resample) {
            header = Buffer.concat([header, data]);
            if (header.length < HEADER_BYTES) continue;
            resample = createResampler(header.readUInt32LE(24), SAMPLE_RATE);
            data = header.subarray(HEADER_BYTES);
          }
          if (odd) {
            data = Buffer.concat([odd, data]);
            odd = null;
          }
          if (data.length % 2) {
            odd = data.subarray(data.length - 1);
            data = data.subarray(0, data.length - 1);
          }
          if (data.length === 0) continue;
          const samples = resample(bytesToSamples(new Uint8Array(data.buffer, data.byteOffset, data.length)));
          if (samples.length) yield samples;
        }
        const code = await exited;
        if (code !== 0 && !signal?.aborted)
          throw new Error(`espeak-ng failed (exit ${code}): ${errors.trim()}`);
      } finally {
        signal?.removeEventListener("abort", stop);
        if (child.exitCode === null) stop();
      }
    },
  };
  return provider;
}
