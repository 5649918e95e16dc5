import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { SAMPLE_RATE } from "../../audio/audio-format.ts";
import { bytesToSamples, createResampler } from "../../audio/pcm.ts";
import { nicedCommand } from "../child-priority.ts";
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
 * The voice file of each language and alias in `espeak-ng --voices` ("en-gb" and "en" -> "gmw/en"). A
 * variant (`+f3`, a female voice) applies to a voice file, not to a language name: `-v en-gb+f2` silently
 * speaks the default voice, `-v gmw/en+f2` speaks the variant.
 */
export function parseEspeakVoiceFiles(listing: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of listing.split("\n").slice(1)) {
    const columns = line.trim().split(/\s+/);
    const [, language, , , file] = columns;
    if (!language || !file || file.startsWith("mb/")) continue;
    if (!files.has(language)) files.set(language, file);
    for (const alias of line.matchAll(/\(([\w-]+) \d+\)/g))
      if (alias[1] && !files.has(alias[1])) files.set(alias[1], file);
  }
  return files;
}

/**
 * Debian's espeak-ng as a child process per sentence: text on stdin, a WAV stream (22.05 kHz) on stdout,
 * resampled to 16 kHz as it arrives. First audio in ~10 ms; robotic but clear. Voices are its languages.
 * A process for the last voice used is started ahead and waits for its text (a warm spare), so a sentence
 * does not wait for a process to start and load its voice.
 */
export function espeakTts(
  options: { binary?: string; wordsPerMinute?: number /** VOICE_CHILD_NICE */; nice?: number } = {},
): TtsProvider {
  const binary = options.binary ?? BINARY;
  const speed = String(options.wordsPerMinute ?? 175);
  let listing: Promise<string> | null = null;
  const readListing = () => {
    listing ??= promisify(execFile)(binary, ["--voices"]).then(({ stdout }) => stdout);
    return listing;
  };
  let files: Promise<Map<string, string>> | null = null;
  /** `language[+variant]` as espeak-ng's -v takes it (the language's voice file), or null if unknown. */
  const resolve = async (voice: string): Promise<string | null> => {
    files ??= readListing().then(parseEspeakVoiceFiles);
    const [base = "", variant] = voice.split("+");
    const file = (await files).get(base);
    if (!file) return null;
    return variant && /^[fm]\d$/.test(variant) ? `${file}+${variant}` : file;
  };
  let listed: Promise<TtsVoice[]> | null = null;
  let spare: { voice: string; child: ChildProcessWithoutNullStreams } | null = null;
  let closed = false;

  const launch = (voice: string) => {
    // At a lower priority (child-priority.ts), as the recogniser: the calls' audio comes first.
    const command = nicedCommand(binary, ["--stdout", "-b", "1", "-s", speed, "-v", voice], options.nice);
    const child = spawn(command.command, command.args, { stdio: ["pipe", "pipe", "pipe"] });
    child.on("error", () => {}); // surfaces as a failed exit where it is used
    return child;
  };
  const drop = () => {
    if (spare && spare.child.exitCode === null) spare.child.kill("SIGKILL");
    spare = null;
  };
  function take(voice: string): ChildProcessWithoutNullStreams {
    const warm = spare && spare.voice === voice && spare.child.exitCode === null ? spare.child : null;
    if (!warm) drop();
    spare = null;
    setImmediate(() => {
      if (!closed && !spare) spare = { voice, child: launch(voice) };
    });
    return warm ?? launch(voice);
  }

  const provider: TtsProvider = {
    name: "espeak-ng",
    defaultVoice: "en-us",
    unavailable() {
      return existsSync(binary)
        ? null
        : "Speech synthesis needs Debian's espeak-ng: run `node scripts/ensure-voice-tools.mjs` (as root) or `sudo apt-get install -y espeak-ng`.";
    },
    voices() {
      listed ??= readListing().then(parseEspeakVoices);
      return listed;
    },
    async *synthesize(text, { voice, signal } = {}) {
      if (signal?.aborted || !text.trim()) return;
      const resolved = voice ? await resolve(voice) : null;
      const child = take(resolved ?? (await resolve("en-us")) ?? "en-us");
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
    close() {
      closed = true;
      drop();
    },
  };
  return provider;
}
