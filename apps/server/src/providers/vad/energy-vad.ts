import { rms } from "../../audio/pcm.ts";
import type { VadProvider, VadStream } from "./vad-provider.ts";

/**
 * A plain energy detector: speech when a frame is well above the noise floor it tracks. No model, no
 * dependency; the fallback and a yardstick for the WebRTC VAD. `marginDb` above the floor counts as speech.
 */
export function energyVad(options: { marginDb?: number; minLevel?: number } = {}): VadProvider {
  const margin = 10 ** ((options.marginDb ?? 12) / 20);
  const minLevel = options.minLevel ?? 300;
  return {
    name: "energy",
    async createStream(): Promise<VadStream> {
      let floor = minLevel / margin;
      return {
        isSpeech(frame) {
          const level = rms(frame);
          // The floor follows quiet frames quickly and loud ones slowly (so speech does not raise it).
          floor = level < floor ? 0.9 * floor + 0.1 * level : 0.999 * floor + 0.001 * level;
          floor = Math.max(floor, 30);
          return level >= minLevel && level > floor * margin;
        },
        reset() {
          floor = minLevel / margin;
        },
        close() {},
      };
    },
  };
}
