import { FRAME_SAMPLES, SAMPLE_RATE } from "./audio-format.ts";

/** PCM16 helpers of the call pipeline: WAV in and out, resampling, cutting audio into 20 ms frames. */

export type Pcm = { sampleRate: number; channels: number; samples: Int16Array };

/** Reads a PCM16 WAV (any sample rate and channel count); answers its samples interleaved. */
export function parseWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAV file");
  let at = 12;
  let format: { channels: number; sampleRate: number; bits: number } | null = null;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      format = {
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === "data") {
      if (format?.bits !== 16) throw new Error("only PCM16 WAV files are read");
      // Streamed WAVs (espeak-ng --stdout) carry a placeholder size: the data runs to the end.
      const end = Math.min(bytes.length, body + size);
      const copy = bytes.slice(body, body + ((end - body) & ~1));
      return {
        sampleRate: format.sampleRate,
        channels: format.channels,
        samples: new Int16Array(copy.buffer, copy.byteOffset, copy.byteLength / 2),
      };
    }
    at = body + size + (size & 1);
  }
  throw new Error("WAV file without data");
}

/** A mono PCM16 WAV file of the samples. */
export function encodeWav(samples: Int16Array, sampleRate = SAMPLE_RATE): Uint8Array {
  const out = new Uint8Array(44 + samples.byteLength);
  const view = new DataView(out.buffer);
  const put = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  };
  put(0, "RIFF");
  view.setUint32(4, 36 + samples.byteLength, true);
  put(8, "WAVE");
  put(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  put(36, "data");
  view.setUint32(40, samples.byteLength, true);
  out.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength), 44);
  return out;
}

/** Int16 samples of little-endian PCM16 bytes (copied when unaligned). */
export function bytesToSamples(bytes: Uint8Array): Int16Array {
  const even = bytes.byteLength & ~1;
  if (bytes.byteOffset % 2 === 0) return new Int16Array(bytes.buffer, bytes.byteOffset, even / 2);
  const copy = bytes.slice(0, even);
  return new Int16Array(copy.buffer, 0, even / 2);
}

/** Root mean square level of a frame, 0..32768. */
export function rms(frame: Int16Array): number {
  let sum = 0;
  for (const sample of frame) sum += sample * sample;
  return frame.length ? Math.sqrt(sum / frame.length) : 0;
}

/**
 * A streaming resampler for mono PCM16: a windowed-sinc low-pass below the lower Nyquist frequency, then
 * linear interpolation. Good enough for speech (espeak-ng's 22.05 kHz down to 16 kHz, 8 kHz up to 16 kHz);
 * keeps its state across chunks so sentence audio can be resampled as it streams.
 */
export function createResampler(from: number, to: number) {
  const taps = 23;
  const cutoff = (0.45 * Math.min(from, to)) / from;
  const kernel = new Float64Array(taps);
  const middle = (taps - 1) / 2;
  let total = 0;
  for (let i = 0; i < taps; i++) {
    const x = i - middle;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const window = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (taps - 1));
    kernel[i] = sinc * window;
    total += kernel[i] as number;
  }
  for (let i = 0; i < taps; i++) kernel[i] = (kernel[i] as number) / total;
  const history = new Float64Array(taps);
  let filled = 0;
  let previous = 0;
  let position = 0; // output sample position, in input samples, relative to `previous`
  const step = from / to;

  return function resample(input: Int16Array): Int16Array {
    if (from === to) return input;
    const out: number[] = [];
    for (const sample of input) {
      history.copyWithin(0, 1);
      history[taps - 1] = sample;
      if (filled < taps) filled++;
      let current = 0;
      for (let i = 0; i < taps; i++) current += (history[i] as number) * (kernel[i] as number);
      while (position <= 1) {
        const value = previous + (current - previous) * position;
        out.push(Math.max(-32768, Math.min(32767, Math.round(value))));
        position += step;
      }
      position -= 1;
      previous = current;
    }
    return Int16Array.from(out);
  };
}

/** Cuts a stream of PCM16 chunks of any length into 20 ms frames; `flush` pads the last one with silence. */
export function createFramer(frameSamples = FRAME_SAMPLES) {
  let pending = new Int16Array(0);
  return {
    push(chunk: Int16Array): Int16Array[] {
      const joined = new Int16Array(pending.length + chunk.length);
      joined.set(pending);
      joined.set(chunk, pending.length);
      const frames: Int16Array[] = [];
      let at = 0;
      for (; at + frameSamples <= joined.length; at += frameSamples)
        frames.push(joined.slice(at, at + frameSamples));
      pending = joined.slice(at);
      return frames;
    },
    flush(): Int16Array[] {
      if (pending.length === 0) return [];
      const last = new Int16Array(frameSamples);
      last.set(pending);
      pending = new Int16Array(0);
      return [last];
    },
  };
}

/** Whole 20 ms frames of a recording (the last one padded with silence). */
export function toFrames(samples: Int16Array): Int16Array[] {
  const framer = createFramer();
  return [...framer.push(samples), ...framer.flush()];
}
