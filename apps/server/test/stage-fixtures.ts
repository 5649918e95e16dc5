import { FRAME_SAMPLES } from "../src/audio/audio-format.ts";
import { DEFAULT_CALL_SETTINGS } from "../src/modules/voice/call-settings.ts";
import type { SttProvider } from "../src/providers/stt/stt-provider.ts";

/** A voiced 20 ms frame for the energy VAD: a tone. */
export const voicedFrame = () =>
  Int16Array.from({ length: FRAME_SAMPLES }, (_, i) => Math.round(5000 * Math.sin(i / 3)));

/** A silent 20 ms frame. */
export const quietFrame = () => new Int16Array(FRAME_SAMPLES);

/**
 * The call a voice stage reads, without a transport: default settings, the given recogniser, no log, and
 * an unexpected error thrown (so a test sees it).
 */
export function stageCall(stt: SttProvider) {
  return {
    settings: DEFAULT_CALL_SETTINGS,
    deps: { stt },
    log: { warn() {} },
    finished: false,
    closing: false,
    unexpected(error: unknown): void {
      throw error;
    },
  };
}
