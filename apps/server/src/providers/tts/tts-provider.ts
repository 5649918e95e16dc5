import type { AgentVoice } from "@switchboard/core";

/** A voice a text-to-speech provider offers, as the agent editor's voice panel lists it. */
export type TtsVoice = { id: string; name: string; language: string; gender: "female" | "male" | null };

/**
 * Text to speech, one sentence at a time: audio arrives as it is made (mono PCM16 at 16 kHz, chunks of any
 * length) and stops when the signal aborts (barge-in).
 */
export type TtsProvider = {
  readonly name: string;
  /** null when the provider can run here; else one line saying what is missing and how to install it. */
  unavailable(): string | null;
  voices(): Promise<TtsVoice[]>;
  /** The voice used when the agent names none this provider knows. */
  readonly defaultVoice: string;
  /** The provider's voice for one of the agent voices (the pickers' list); else its `engineVoice`. */
  voiceFor?(voice: AgentVoice): string;
  synthesize(
    text: string,
    options?: { voice?: string | null; signal?: AbortSignal },
  ): AsyncIterable<Int16Array>;
  /** Stops processes or connections kept warm. */
  close?(): void;
};
