// Word error rate of the offline recogniser (issue 16): phone-style sentences synthesised at run time with
// festival (HTS voice) and espeak-ng (two voices), at other speeds (sox tempo), with white noise mixed in
// (sox), and through the telephone band (sox: 8 kHz μ-law and back), each recognised by the pipeline's
// pocketsphinx provider as a call would stream it (20 ms frames). Prints WER per condition: (substitutions +
// deletions + insertions) / reference words. 10 sentences (BENCH_SIZE=smoke: 3). Needs Debian's festival,
// festvox-us-slt-hts, espeak-ng, sox and pocketsphinx (`node scripts/ensure-voice-tools.mjs`).

import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parseWav, toFrames } from "../apps/server/src/audio/pcm.ts";
import { pocketsphinxStt } from "../apps/server/src/providers/stt/pocketsphinx.ts";
import { reportFigure } from "./report.ts";

const run = promisify(execFile);
const SMOKE = process.env.BENCH_SIZE === "smoke";
const SENTENCES = [
  "Do you see children?",
  "When are you open on Saturday?",
  "How much does a cleaning cost?",
  "I would like to book an appointment.",
  "Can I speak to the dentist please?",
  "Do you take my insurance?",
  "Where are you located?",
  "I need to cancel my visit tomorrow.",
  "Is there parking near the office?",
  "My tooth hurts and I need help today.",
].slice(0, SMOKE ? 3 : 10);

type Voice = { name: string; make: (text: string, out: string) => Promise<void> };
const festival: Voice = {
  name: "festival HTS",
  async make(text, out) {
    const child = run("text2wave", ["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", out]);
    child.child.stdin?.end(text);
    await child;
  },
};
const espeak = (voice: string): Voice => ({
  name: `espeak-ng ${voice}`,
  make: async (text, out) => {
    await run("espeak-ng", ["-v", voice, "-w", out, text]);
  },
});

type Condition = { voice: Voice; label: string; effects: (input: string, dir: string) => Promise<string> };
const to16k = async (input: string, out: string, ...effects: string[]) => {
  await run("sox", [input, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", out, ...effects]);
  return out;
};
const clean = (input: string, dir: string) => to16k(input, path.join(dir, "clean.wav"));
const tempo = (factor: number) => (input: string, dir: string) =>
  to16k(input, path.join(dir, `tempo${factor}.wav`), "tempo", String(factor));
const noisy = (volume: number) => async (input: string, dir: string) => {
  const speech = await clean(input, dir);
  const noise = path.join(dir, "noise.wav");
  await run("sox", [speech, noise, "synth", "whitenoise", "vol", String(volume)]);
  const out = path.join(dir, `noise${volume}.wav`);
  await run("sox", ["-m", speech, noise, out]);
  return out;
};
const telephone = async (input: string, dir: string) => {
  const narrow = path.join(dir, "ulaw.wav");
  await run("sox", [input, "-r", "8000", "-c", "1", "-e", "u-law", narrow]);
  return to16k(narrow, path.join(dir, "phone.wav"));
};

const CONDITIONS: Condition[] = [
  { voice: festival, label: "16 kHz clean", effects: clean },
  { voice: festival, label: "16 kHz tempo 0.85", effects: tempo(0.85) },
  { voice: festival, label: "16 kHz tempo 1.25", effects: tempo(1.25) },
  { voice: festival, label: "16 kHz + noise (vol 0.02)", effects: noisy(0.02) },
  { voice: festival, label: "16 kHz + noise (vol 0.08)", effects: noisy(0.08) },
  { voice: festival, label: "8 kHz μ-law (phone)", effects: telephone },
  { voice: espeak("en-us"), label: "16 kHz clean", effects: clean },
  { voice: espeak("en-us+f3"), label: "16 kHz clean", effects: clean },
  { voice: espeak("en-us"), label: "16 kHz + noise (vol 0.02)", effects: noisy(0.02) },
];

const words = (text: string) => text.toLowerCase().match(/[a-z0-9']+/g) ?? [];
/** Word-level edit distance. */
function errors(reference: string[], hypothesis: string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const row = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + same,
      );
    }
    previous = row;
  }
  return previous[hypothesis.length] as number;
}

// STT_PASSES=full measures pocketsphinx with its second passes (the provider's `passes` option).
const PASSES = process.env.STT_PASSES === "full" ? "full" : "fast";
const stt = pocketsphinxStt({ timeoutMs: 120_000, passes: PASSES });
const root = await mkdtemp(path.join(tmpdir(), "sb-wer-"));
console.log(
  `sentences: ${SENTENCES.length}${SMOKE ? " (BENCH_SIZE=smoke)" : ""}, pocketsphinx passes: ${PASSES}`,
);
console.log(`${"voice".padEnd(20)} ${"condition".padEnd(28)} WER`);
try {
  for (const [c, condition] of CONDITIONS.entries()) {
    let wrong = 0;
    let total = 0;
    const examples: string[] = [];
    for (const [s, sentence] of SENTENCES.entries()) {
      const dir = path.join(root, `${c}-${s}`);
      await mkdir(dir, { recursive: true });
      const raw = path.join(dir, "raw.wav");
      await condition.voice.make(sentence, raw);
      const file = await condition.effects(raw, dir);
      const audio = parseWav(await readFile(file));
      const stream = stt.start();
      for (const frame of toFrames(audio.samples)) stream.write(frame);
      const heard = await stream.finish();
      const reference = words(sentence);
      wrong += errors(reference, words(heard));
      total += reference.length;
      if (examples.length < 1) examples.push(`"${heard}"`);
    }
    reportFigure({
      bench: "voice-wer",
      name: `WER ${condition.voice.name}, ${condition.label}`,
      value: (100 * wrong) / total,
      unit: "%",
      better: "lower",
    });
    console.log(
      `${condition.voice.name.padEnd(20)} ${condition.label.padEnd(28)} ${((100 * wrong) / total).toFixed(1).padStart(5)}%   e.g. ${examples[0]}`,
    );
  }
} finally {
  stt.close();
  await rm(root, { recursive: true, force: true });
}
