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
