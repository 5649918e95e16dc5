/**
 * The SIP transport's audio edge: RTP payloads (G.711 μ-law/A-law at 8 kHz, L16 at 16 kHz) to and from the
 * pipeline's PCM16 16 kHz, with a 2× polyphase FIR resampler (windowed sinc) for the narrowband codecs.
 */
import alawmulaw from "alawmulaw";

const { alaw, mulaw } = alawmulaw;

export type CodecName = "PCMU" | "PCMA" | "L16";

/** Turns payloads into 16 kHz samples (any ptime) and 16 kHz samples into payloads; stateful per call. */
export type CodecSession = {
  name: CodecName;
  /** RTP clock rate. */
  clockRate: number;
  decode(payload: Buffer): Int16Array;
  encode(samples16k: Int16Array): Buffer;
  /** A payload of silence for `samples16k` samples at 16 kHz. */
  silence(samples16k: number): Buffer;
};

// 63-tap Blackman-windowed sinc low-pass at 3.8 kHz (for a 16 kHz rate): flat through the telephone band
// (300–3400 Hz), about −74 dB from 4.5 kHz, 2 ms of delay. Used both ways (interpolation and decimation).
const TAPS = (() => {
  const n = 63;
  const fc = 3800 / 16_000;
  const taps = new Float64Array(n);
  const mid = (n - 1) / 2;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const window =
      0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (n - 1));
    taps[i] = sinc * window;
    sum += taps[i] as number;
  }
  for (let i = 0; i < n; i++) taps[i] = (taps[i] as number) / sum;
  return taps;
})();

function clamp16(value: number): number {
  const rounded = Math.round(value);
  return Math.min(32767, Math.max(-32768, rounded));
}

/** 8 kHz → 16 kHz: zero-stuffing and the low-pass (gain 2), keeping the filter's history between calls. */
export function createUpsampler() {
  // The last input samples the filter still reaches (the zero-stuffed stream spans TAPS.length samples).
  const keep = Math.ceil(TAPS.length / 2);
  let tail = new Float64Array(keep);
  return (input: Int16Array): Int16Array => {
    const x = new Float64Array(keep + input.length);
    x.set(tail);
    for (let i = 0; i < input.length; i++) x[keep + i] = input[i] as number;
    const out = new Int16Array(input.length * 2);
    for (let i = 0; i < input.length; i++) {
      const newest = keep + i;
      // Even output (the input sample itself on the stuffed grid): even taps; odd output: odd taps.
      let even = 0;
      for (let k = 0, j = newest; k < TAPS.length; k += 2, j--)
        even += (TAPS[k] as number) * (x[j] as number);
      let odd = 0;
      for (let k = 1, j = newest; k < TAPS.length; k += 2, j--) odd += (TAPS[k] as number) * (x[j] as number);
      out[i * 2] = clamp16(even * 2);
      out[i * 2 + 1] = clamp16(odd * 2);
    }
    tail = x.slice(x.length - keep);
    return out;
  };
}

/** 16 kHz → 8 kHz: the low-pass then every other sample, keeping the filter's history between calls. */
export function createDownsampler() {
  const keep = TAPS.length - 1;
  let tail = new Float64Array(keep);
  let phase = 0; // index in the next input of the first sample to keep
  return (input: Int16Array): Int16Array => {
    const x = new Float64Array(keep + input.length);
    x.set(tail);
    for (let i = 0; i < input.length; i++) x[keep + i] = input[i] as number;
    const out = new Int16Array(Math.ceil((input.length - phase) / 2));
    let n = 0;
    for (let i = phase; i < input.length; i += 2) {
      let acc = 0;
      for (let k = 0, j = keep + i; k < TAPS.length; k++, j--) acc += (TAPS[k] as number) * (x[j] as number);
      out[n++] = clamp16(acc);
    }
    phase = (phase + input.length) % 2;
    tail = x.slice(x.length - keep);
    return n === out.length ? out : out.subarray(0, n);
  };
}

export function createCodecSession(name: CodecName): CodecSession {
  if (name === "L16") {
    return {
      name,
      clockRate: 16_000,
      decode(payload) {
        const samples = new Int16Array(payload.length >> 1);
        for (let i = 0; i < samples.length; i++) samples[i] = payload.readInt16BE(i * 2);
        return samples;
      },
      encode(samples) {
        const payload = Buffer.allocUnsafe(samples.length * 2);
        for (let i = 0; i < samples.length; i++) payload.writeInt16BE(samples[i] as number, i * 2);
        return payload;
      },
      silence: (samples) => Buffer.alloc(samples * 2),
    };
  }
  const law = name === "PCMU" ? mulaw : alaw;
  const silenceByte = law.encodeSample(0);
  const up = createUpsampler();
  const down = createDownsampler();
  return {
    name,
    clockRate: 8000,
    decode: (payload) => up(law.decode(new Uint8Array(payload.buffer, payload.byteOffset, payload.length))),
    encode: (samples) => Buffer.from(law.encode(down(samples))),
    silence: (samples) => Buffer.alloc(samples >> 1, silenceByte),
  };
}
