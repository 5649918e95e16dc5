/**
 * Answering-machine detection from the callee's first audio (PCM16 16 kHz, 20 ms frames), the way
 * Asterisk's AMD and carriers' detectors do it: a person answers with a short "Hello?" and then waits
 * (silence after a short greeting); a machine plays a long greeting, often ended by a beep. Decides within
 * a few seconds:
 *
 * - greeting (speech since its onset, short gaps bridged) longer than `greetingMs` → machine;
 * - a tone (one frequency holding ≥ `beepMs`) → machine, and the beep is reported for leaving a message;
 * - a short greeting followed by `afterGreetingSilenceMs` of silence → person;
 * - nothing said for `initialSilenceMs` → machine (a machine that records at once; a silent line);
 * - no decision after `totalMs` → person (the benefit of the doubt: the agent speaks).
 */

export type AmdDecision = { answeredBy: "person" | "machine"; reason: string; atMs: number };

export type AmdOptions = {
  initialSilenceMs: number;
  greetingMs: number;
  afterGreetingSilenceMs: number;
  totalMs: number;
  beepMs: number;
  /** Frame energy (dBFS) above which a frame is voiced. */
  voicedDb: number;
};

export const DEFAULT_AMD: AmdOptions = {
  initialSilenceMs: 2500,
  greetingMs: 2000,
  afterGreetingSilenceMs: 800,
  totalMs: 5000,
  beepMs: 160,
  voicedDb: -38,
};

const FRAME_MS = 20;
const SAMPLE_RATE = 16_000;

function energyDb(frame: Int16Array): number {
  let sum = 0;
  for (const sample of frame) sum += sample * sample;
  const rms = Math.sqrt(sum / Math.max(1, frame.length)) / 32768;
  return rms > 0 ? 20 * Math.log10(rms) : -120;
}

/** The frame's dominant frequency from zero crossings, and how much of its power sits at that frequency. */
export function toneOf(frame: Int16Array): { hz: number; purity: number } {
  let crossings = 0;
  for (let i = 1; i < frame.length; i++)
    if (
      ((frame[i - 1] ?? 0) >= 0 && (frame[i] ?? 0) < 0) ||
      ((frame[i - 1] ?? 0) < 0 && (frame[i] ?? 0) >= 0)
    )
      crossings++;
  const hz = (crossings * SAMPLE_RATE) / (2 * frame.length);
  if (hz < 300 || hz > 3000) return { hz, purity: 0 };
  // Goertzel at the estimated frequency against the frame's total power.
  const k = Math.round((frame.length * hz) / SAMPLE_RATE);
  const w = (2 * Math.PI * k) / frame.length;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  let total = 0;
  for (const sample of frame) {
    const s0 = sample + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
    total += sample * sample;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  const purity = total > 0 ? (2 * power) / (frame.length * total) : 0;
  return { hz, purity };
}

export type AnsweringMachineDetector = {
  /** One 20 ms frame of the callee's audio; returns the decision once made (then always the same). */
  push(frame: Int16Array): AmdDecision | null;
  /** Time passed with no audio from the callee (no RTP): counted as silence. */
  silence(ms: number): AmdDecision | null;
  readonly decision: AmdDecision | null;
  /** A beep was heard (after or at the decision): the moment to leave a message. */
  readonly beepAtMs: number | null;
  /** Silence (ms) since the last voiced frame. */
  readonly silenceMs: number;
};

export function createAnsweringMachineDetector(options: Partial<AmdOptions> = {}): AnsweringMachineDetector {
  const o = { ...DEFAULT_AMD, ...options };
  let elapsed = 0;
  let onsetAt: number | null = null;
  let voicedInGreeting = 0;
  let silenceRun = 0;
  let toneRun = 0;
  let toneHz = 0;
  let decision: AmdDecision | null = null;
  let beepAtMs: number | null = null;

  const decide = (answeredBy: AmdDecision["answeredBy"], reason: string) => {
    decision ??= { answeredBy, reason, atMs: elapsed };
    return decision;
  };

  function step(voiced: boolean, tone: { hz: number; purity: number } | null): AmdDecision | null {
    elapsed += FRAME_MS;
    if (tone && tone.purity > 0.6 && voiced && (toneRun === 0 || Math.abs(tone.hz - toneHz) < 60)) {
      toneRun += FRAME_MS;
      toneHz = tone.hz;
      if (toneRun >= o.beepMs && beepAtMs === null) {
        beepAtMs = elapsed;
        decide("machine", "beep");
      }
    } else toneRun = 0;
    if (voiced) {
      silenceRun = 0;
      onsetAt ??= elapsed;
      voicedInGreeting += FRAME_MS;
    } else silenceRun += FRAME_MS;
    if (decision) return decision;
    if (onsetAt === null) {
      if (elapsed >= o.initialSilenceMs) return decide("machine", "initial silence");
    } else {
      if (voicedInGreeting >= o.greetingMs) return decide("machine", "long greeting");
      if (silenceRun >= o.afterGreetingSilenceMs) return decide("person", "short greeting then silence");
    }
    if (elapsed >= o.totalMs) return decide("person", "undecided in time");
    return null;
  }

  return {
    push(frame) {
      const voiced = energyDb(frame) > o.voicedDb;
      return step(voiced, voiced ? toneOf(frame) : null);
    },
    silence(ms) {
      let result: AmdDecision | null = decision;
      for (let t = 0; t < ms; t += FRAME_MS) result = step(false, null);
      return result;
    },
    get decision() {
      return decision;
    },
    get beepAtMs() {
      return beepAtMs;
    },
    get silenceMs() {
      return silenceRun;
    },
  };
}
