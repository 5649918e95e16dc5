/**
 * In-band DTMF: the keypad's dual tones as audio, and a detector for them. Used where a line carries no
 * RFC 4733 telephone-events (Twilio's media streams, a browser, a SIP peer that did not offer them): the
 * keys are played as the tones a telephone makes, which every IVR hears.
 */
import { SAMPLE_RATE } from "./audio-format.ts";
import { toFrames } from "./pcm.ts";

const ROWS = [697, 770, 852, 941];
const COLUMNS = [1209, 1336, 1477, 1633];
const KEYPAD = ["123A", "456B", "789C", "*0#D"];

/** A key's tone lasts this long, with this much silence after it (ITU-T Q.24 asks for at least 40 ms each). */
export const DTMF_TONE_MS = 100;
export const DTMF_GAP_MS = 100;
/** Each of the two tones' peak: together about -7 dBFS, loud enough through G.711 and below clipping. */
const AMPLITUDE = 9000;

function frequenciesOf(key: string): [number, number] {
  for (let row = 0; row < 4; row++) {
    const column = KEYPAD[row]?.indexOf(key) ?? -1;
    if (column >= 0) return [ROWS[row] as number, COLUMNS[column] as number];
  }
  throw new Error(`${key} is not a keypad key`);
}

/** The keys as 20 ms frames at SAMPLE_RATE: each key's tone, then silence. Keys: 0-9, *, #, A-D. */
export function dtmfFrames(keys: string): Int16Array[] {
  const toneSamples = (SAMPLE_RATE * DTMF_TONE_MS) / 1000;
  const gapSamples = (SAMPLE_RATE * DTMF_GAP_MS) / 1000;
  const all = new Int16Array(keys.length * (toneSamples + gapSamples));
  let at = 0;
  for (const key of keys) {
    const [low, high] = frequenciesOf(key);
    for (let i = 0; i < toneSamples; i++) {
      const t = i / SAMPLE_RATE;
      all[at + i] = Math.round(
        AMPLITUDE * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)),
      );
    }
    at += toneSamples + gapSamples;
  }
  return toFrames(all);
}

/** The power of `hz` in `frame` (Goertzel). */
function power(frame: Int16Array, hz: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / SAMPLE_RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < frame.length; i++) {
    const s0 = (frame[i] as number) + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return s1 * s1 + s2 * s2 - coefficient * s1 * s2;
}

function strongest(
  frame: Int16Array,
  frequencies: number[],
): { index: number; power: number; second: number } {
  let index = 0;
  let best = 0;
  let second = 0;
  frequencies.forEach((hz, i) => {
    const p = power(frame, hz);
    if (p > best) {
      second = best;
      best = p;
      index = i;
    } else if (p > second) second = p;
  });
  return { index, power: best, second };
}

/** The key a 20 ms frame holds, or null: one row and one column tone clearly above the rest of the frame. */
export function dtmfKeyOf(frame: Int16Array): string | null {
  let energy = 0;
  for (let i = 0; i < frame.length; i++) energy += (frame[i] as number) ** 2;
  // Below about -40 dBFS nothing is a key.
  if (energy / frame.length < 100 ** 2) return null;
  const row = strongest(frame, ROWS);
  const column = strongest(frame, COLUMNS);
  // Each tone well above the others of its group, neither more than 8 dB (6.3×) above the other (twist),
  // and the two together most of the frame's energy: speech and music spread theirs.
  if (row.power < 6 * row.second || column.power < 6 * column.second) return null;
  const twist = row.power / column.power;
  if (twist > 6.3 || twist < 1 / 6.3) return null;
  const share = (2 * (row.power + column.power)) / (frame.length * energy);
  if (share < 0.7) return null;
  return KEYPAD[row.index]?.[column.index] ?? null;
}

/**
 * Hears keys in a stream of 20 ms frames: a key is pressed when two frames in a row hold it (40 ms), and
 * counts once until a frame without it.
 */
export function createDtmfDetector() {
  let candidate: string | null = null;
  let held = 0;
  let reported = false;
  return {
    push(frame: Int16Array): string | null {
      const key = dtmfKeyOf(frame);
      if (key !== candidate) {
        candidate = key;
        held = key ? 1 : 0;
        reported = false;
        return null;
      }
      if (!key) return null;
      held++;
      if (held >= 2 && !reported) {
        reported = true;
        return key;
      }
      return null;
    },
  };
}
