import { SAMPLE_RATE } from "../../audio/audio-format.ts";
import { bytesToSamples, createResampler } from "../../audio/pcm.ts";

/**
 * Raw little-endian PCM16 mono bytes as they arrive (an HTTP body), as 16 kHz sample chunks: resampled from
 * `fromRate`, a byte split across two chunks carried to the next.
 */
export async function* pcmChunks(
  body: AsyncIterable<Uint8Array>,
  fromRate: number,
  signal?: AbortSignal,
): AsyncGenerator<Int16Array> {
  const resample = createResampler(fromRate, SAMPLE_RATE);
  let carry: Uint8Array | null = null;
  for await (const chunk of body) {
    if (signal?.aborted) return;
    let data = chunk;
    if (carry) {
      const joined = new Uint8Array(carry.length + data.length);
      joined.set(carry);
      joined.set(data, carry.length);
      data = joined;
      carry = null;
    }
    if (data.length % 2) {
      carry = data.slice(data.length - 1);
      data = data.subarray(0, data.length - 1);
    }
    if (data.length === 0) continue;
    const samples = resample(bytesToSamples(data));
    if (samples.length > 0) yield samples;
  }
}

/** A provider's refusal as one line: its status and the start of what it said. */
export async function httpFailure(provider: string, response: Response): Promise<Error> {
  const text = (await response.text().catch(() => "")).slice(0, 300);
  return new Error(`${provider} answered ${response.status}${text ? `: ${text}` : ""}`);
}
