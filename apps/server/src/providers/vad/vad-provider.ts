/**
 * Voice activity detection: is there speech in this 20 ms frame (mono PCM16, 16 kHz)? Each call gets a
 * stream of its own (detectors keep state between frames). Endpointing (when a turn starts and ends) is the
 * pipeline's, over these per-frame decisions.
 */
export type VadStream = {
  isSpeech(frame: Int16Array): boolean;
  reset(): void;
  close(): void;
};

export type VadProvider = {
  readonly name: string;
  createStream(): Promise<VadStream>;
};

/**
 * The first detector whose stream can be made: `primary`, else `fallback` (e.g. the WebRTC VAD's
 * WebAssembly failed to load). A failure is reported once; later calls go straight to the fallback.
 */
export function vadWithFallback(
  primary: VadProvider,
  fallback: VadProvider,
  onFallback: (error: unknown) => void = () => {},
): VadProvider {
  let failed = false;
  return {
    get name() {
      return failed ? fallback.name : primary.name;
    },
    async createStream() {
      if (!failed) {
        try {
          return await primary.createStream();
        } catch (error) {
          failed = true;
          onFallback(error);
        }
      }
      return fallback.createStream();
    },
  };
}
