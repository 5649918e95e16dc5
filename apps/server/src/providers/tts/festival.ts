import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { SAMPLE_RATE } from "../../audio/audio-format.ts";
import { bytesToSamples, createResampler } from "../../audio/pcm.ts";
import { nicedCommand } from "../child-priority.ts";
import type { TtsProvider } from "./tts-provider.ts";

const BINARY = "/usr/bin/text2wave";
const VOICE_DIR = "/usr/share/festival/voices/us/cmu_us_slt_arctic_hts";
const HEADER_BYTES = 44;

/**
 * Debian's Festival with its HTS voice (festvox-us-slt-hts), one process per sentence: a natural female
 * voice, slower to start than espeak-ng (the whole sentence is made before it plays), and the voice the
 * offline recogniser hears best. The sandbox's simulated callers speak with it (modules/voice/
 * simulated-caller.ts), so a caller sounds like somebody other than the agent.
 */
export function festivalTts(
  options: { binary?: string /** VOICE_CHILD_NICE */; nice?: number } = {},
): TtsProvider {
  const binary = options.binary ?? BINARY;
  return {
    name: "festival",
    defaultVoice: "cmu_us_slt_arctic_hts",
    unavailable() {
      return existsSync(binary) && existsSync(VOICE_DIR)
        ? null
        : "Festival's voice needs Debian's festival and festvox-us-slt-hts: run `node scripts/ensure-voice-tools.mjs` (as root).";
    },
    async voices() {
      return [{ id: "cmu_us_slt_arctic_hts", name: "SLT (US English)", language: "en-us", gender: "female" }];
    },
    async *synthesize(text, { signal } = {}) {
      if (signal?.aborted || !text.trim()) return;
      // At a lower priority (child-priority.ts): the calls' audio comes first.
      const command = nicedCommand(binary, ["-eval", "(voice_cmu_us_slt_arctic_hts)"], options.nice);
      const child = spawn(command.command, command.args, { stdio: ["pipe", "pipe", "pipe"] });
      const stop = () => child.kill("SIGKILL");
      signal?.addEventListener("abort", stop, { once: true });
      const chunks: Buffer[] = [];
      let errors = "";
      child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => {
        errors = (errors + chunk.toString()).slice(-500);
      });
      const exited = new Promise<number | null>((resolve) => {
        child.on("close", (code) => resolve(code));
        child.on("error", () => resolve(-1));
      });
      child.stdin.on("error", () => {});
      child.stdin.end(text);
      const code = await exited;
      signal?.removeEventListener("abort", stop);
      if (signal?.aborted) return;
      const wav = Buffer.concat(chunks);
      if (code !== 0 || wav.length < HEADER_BYTES || wav.toString("ascii", 0, 4) !== "RIFF")
        throw new Error(`festival failed (exit ${code}): ${errors.trim()}`);
      // A WAV written to a pipe: the header's sizes are not filled in, its rate is (32 kHz for this voice).
      const rate = wav.readUInt32LE(24);
      yield createResampler(rate, SAMPLE_RATE)(bytesToSamples(wav.subarray(HEADER_BYTES)));
    },
  };
}
