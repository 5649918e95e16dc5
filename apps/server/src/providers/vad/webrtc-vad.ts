/// <reference path="./fvad-wasm.d.ts" />
import createFvad, { type FvadModule } from "@echogarden/fvad-wasm";
import { FRAME_SAMPLES, SAMPLE_RATE } from "../../audio/audio-format.ts";
import { rms } from "../../audio/pcm.ts";
import type { VadProvider, VadStream } from "./vad-provider.ts";

let loaded: Promise<FvadModule> | null = null;

/**
 * The WebRTC VAD (libfvad as WebAssembly, @echogarden/fvad-wasm): a 56 KB module, microseconds a frame, so it
 * runs on the event loop. `mode` 0-3: higher rejects more non-speech. 3 is the default: at 1 and 2 it
 * reports steady low noise after speech as speech for seconds, so a turn would never end. Frames below
 * `minLevel` RMS (about -50 dBFS) are never speech: the detector flags ~80 ms at the onset of any noise
 * while it adapts, which would otherwise read as a caller starting to talk.
 */
export function webrtcVad(options: { mode?: 0 | 1 | 2 | 3; minLevel?: number } = {}): VadProvider {
  const mode = options.mode ?? 3;
  const minLevel = options.minLevel ?? 100;
  return {
    name: "webrtc",
    async createStream(): Promise<VadStream> {
      loaded ??= createFvad();
      const wasm = await loaded;
      const instance = wasm._fvad_new();
      if (!instance) throw new Error("fvad_new failed");
      if (
        wasm._fvad_set_mode(instance, mode) !== 0 ||
        wasm._fvad_set_sample_rate(instance, SAMPLE_RATE) !== 0
      )
        throw new Error("fvad rejected its settings");
      const buffer = wasm._malloc(FRAME_SAMPLES * 2);
      let closed = false;
      return {
        isSpeech(frame) {
          if (closed) return false;
          if (frame.length !== FRAME_SAMPLES) throw new Error(`VAD frames are ${FRAME_SAMPLES} samples`);
          wasm.HEAP16.set(frame, buffer >> 1);
          const voiced = wasm._fvad_process(instance, buffer, FRAME_SAMPLES) === 1;
          return voiced && rms(frame) >= minLevel;
        },
        reset() {
          if (!closed) wasm._fvad_reset(instance);
        },
        close() {
          if (closed) return;
          closed = true;
          wasm._free(buffer);
          wasm._fvad_free(instance);
        },
      };
    },
  };
}
