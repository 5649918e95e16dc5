/**
 * Speech to text for one utterance at a time: the pipeline opens a stream when the caller starts talking,
 * writes the 20 ms frames (mono PCM16, 16 kHz) as they arrive, and asks for the final text when the turn
 * ends; a stream it no longer wants (a backchannel, a hang-up) is aborted.
 */
export type SttStream = {
  write(frame: Int16Array): void;
  /** The recognised text of everything written ("" when nothing was recognised). */
  finish(): Promise<string>;
  abort(): void;
};

export type SttProvider = {
  readonly name: string;
  /** null when the provider can run here; else one line saying what is missing and how to install it. */
  unavailable(): string | null;
  start(): SttStream;
  /** Stops processes kept warm. */
  close(): void;
};
