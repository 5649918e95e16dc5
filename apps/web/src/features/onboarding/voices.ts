import { AGENT_LANGUAGES, AGENT_VOICES, findVoice } from "@switchboard/core";

/** The voice picker's choices: core's voice catalogue (shared with the agent editor); the first is the default. */
export const VOICE_CHOICES = AGENT_VOICES;

export const DEFAULT_VOICE_ID = AGENT_VOICES[0]?.id ?? "ava";

export function voiceName(id: string | null): string {
  return findVoice(id)?.name ?? id ?? "";
}

/** The language a voice speaks (sent with the voice), or undefined for an unknown voice. */
export function voiceLanguage(id: string | null): string | undefined {
  return findVoice(id)?.language;
}

export function languageLabel(code: string): string {
  return AGENT_LANGUAGES.find((language) => language.code === code)?.label ?? code;
}
