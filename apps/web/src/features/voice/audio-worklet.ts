/**
 * The call's two AudioWorklet processors, loaded from one Blob module (no separate build entry):
 *
 * - `switchboard-mic` downsamples the microphone from the context's rate (44.1/48 kHz) to 16 kHz (an
 *   averaging filter over each output sample's span, then PCM16) and posts every 20 ms frame (320 samples,
 *   an ArrayBuffer, transferred) with its level; muted, it posts silence so the call keeps its clock.
 * - `switchboard-player` plays the agent's 16 kHz PCM16 frames at the context's rate (linear interpolation)
 *   from a small jitter buffer: it starts once `PREBUFFER_MS` is buffered, refills after an underrun, and
 *   drops everything on "clear" (the caller barged in).
 */

export const MIC_PROCESSOR = "switchboard-mic";
export const PLAYER_PROCESSOR = "switchboard-player";
export const CALL_SAMPLE_RATE = 16_000;
export const FRAME_SAMPLES = 320;
export const PREBUFFER_MS = 80;

const SOURCE = `
const RATE = ${CALL_SAMPLE_RATE};
const FRAME = ${FRAME_SAMPLES};
const PREBUFFER = ${(CALL_SAMPLE_RATE * PREBUFFER_MS) / 1000};

class MicProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / RATE;
    this.phase = 0;
    this.sum = 0;
    this.count = 0;
    this.frame = new Int16Array(FRAME);
    this.filled = 0;
    this.energy = 0;
    this.muted = false;
    this.port.onmessage = (event) => {
      if (event.data && typeof event.data.muted === "boolean") this.muted = event.data.muted;
    };
  }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    const length = channel ? channel.length : 128;
    for (let i = 0; i < length; i++) {
      this.sum += channel ? channel[i] : 0;
      this.count++;
      this.phase += 1;
      if (this.phase < this.ratio) continue;
      this.phase -= this.ratio;
      const value = this.muted ? 0 : Math.max(-1, Math.min(1, this.sum / this.count));
      this.sum = 0;
      this.count = 0;
      const sample = Math.round(value * 32767);
      this.frame[this.filled++] = sample;
      this.energy += sample * sample;
      if (this.filled === FRAME) {
        const level = Math.sqrt(this.energy / FRAME) / 32768;
        const buffer = this.frame.buffer;
        this.port.postMessage({ frame: buffer, level }, [buffer]);
        this.frame = new Int16Array(FRAME);
        this.filled = 0;
        this.energy = 0;
      }
    }
    return true;
  }
}

class PlayerProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.step = RATE / sampleRate;
    this.queue = [];
    this.current = null;
    this.index = 0;
    this.buffered = 0;
    this.playing = false;
    this.phase = 0;
    this.previous = 0;
    this.next = 0;
    this.port.onmessage = (event) => {
      if (event.data === "clear") {
        this.queue = [];
        this.current = null;
        this.buffered = 0;
        this.playing = false;
        this.previous = 0;
        this.next = 0;
        return;
      }
      const samples = new Int16Array(event.data);
      this.queue.push(samples);
      this.buffered += samples.length;
    };
  }
  take() {
    while (!this.current || this.index >= this.current.length) {
      this.current = this.queue.shift() || null;
      this.index = 0;
      if (!this.current) return null;
    }
    this.buffered--;
    return this.current[this.index++] / 32768;
  }
  process(_inputs, outputs) {
    const out = outputs[0][0];
    if (!this.playing && this.buffered >= PREBUFFER) this.playing = true;
    for (let i = 0; i < out.length; i++) {
      if (!this.playing) {
        out[i] = 0;
        continue;
      }
      this.phase += this.step;
      while (this.phase >= 1) {
        this.phase -= 1;
        const sample = this.take();
        if (sample === null) {
          // Underrun: fade to silence and wait for the buffer to fill again.
          this.playing = false;
          this.previous = this.next;
          this.next = 0;
          break;
        }
        this.previous = this.next;
        this.next = sample;
      }
      out[i] = this.previous + (this.next - this.previous) * this.phase;
    }
    for (let c = 1; c < outputs[0].length; c++) outputs[0][c].set(out);
    return true;
  }
}

registerProcessor("${MIC_PROCESSOR}", MicProcessor);
registerProcessor("${PLAYER_PROCESSOR}", PlayerProcessor);
`;

let moduleUrl: string | null = null;

/** Adds both processors to the context (one Blob URL for the page's lifetime). */
export async function loadCallWorklets(context: AudioContext): Promise<void> {
  moduleUrl ??= URL.createObjectURL(new Blob([SOURCE], { type: "text/javascript" }));
  await context.audioWorklet.addModule(moduleUrl);
}
