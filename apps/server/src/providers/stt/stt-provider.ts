/**
 * Speech to text for one utterance at a time: the pipeline opens a stream when the caller starts talking,
 * writes the 20 ms frames (mono PCM16, 16 kHz) as they arrive, and asks for the final text when the turn
 * ends; a stream it no longer wants (a backchannel, a hang-up) is aborted.
 */
export type SttStream = {
  write(frame: Int16Array): void;
  /** The recognised text of everything written ("" when nothing was recognised). */
  finish(): Promise<string>;
  /** After `finish`: the recogniser's confidence in its text (0-1), or null when it gives none. */
  confidence?(): number | null;
  abort(): void;
};

export type SttProvider = {
  readonly name: string;
  /** null when the provider can run here; else one line saying what is missing and how to install it. */
  unavailable(): string | null;
  /**
   * Whether it recognises narrowband telephone audio (G.711 at 8 kHz, resampled to 16 kHz): hosted models
   * do; the offline recogniser's wideband model hears almost none of it.
   */
  readonly hearsNarrowband: boolean;
  start(): SttStream;
  /** Stops processes kept warm. */
  close(): void;
};
