/** A voice an agent can speak with. `engineVoice` is the offline speech engine's voice (espeak-ng). */
export type AgentVoice = {
  id: string;
  name: string;
  description: string;
  language: string;
  engineVoice: string;
};

/** The voices offered by the voice picker of the onboarding wizard and the agent editor. */
export const AGENT_VOICES: readonly AgentVoice[] = [
  { id: "ava", name: "Ava", description: "Warm and calm", language: "en-US", engineVoice: "en-us+f3" },
  {
    id: "miles",
    name: "Miles",
    description: "Friendly and upbeat",
    language: "en-US",
    engineVoice: "en-us+m3",
  },
  {
    id: "olivia",
    name: "Olivia",
    description: "Clear and professional",
    language: "en-GB",
    engineVoice: "en-gb+f2",
  },
  {
    id: "henry",
    name: "Henry",
    description: "Measured and reassuring",
    language: "en-GB",
    engineVoice: "en-gb+m1",
  },
  { id: "lucia", name: "Lucía", description: "Bright and patient", language: "es-ES", engineVoice: "es+f4" },
  {
    id: "mateo",
    name: "Mateo",
    description: "Relaxed and warm",
    language: "es-MX",
    engineVoice: "es-419+m2",
  },
  { id: "claire", name: "Claire", description: "Soft and precise", language: "fr-FR", engineVoice: "fr+f2" },
  { id: "jonas", name: "Jonas", description: "Steady and direct", language: "de-DE", engineVoice: "de+m4" },
];

/** The languages an agent can speak and understand. */
export const AGENT_LANGUAGES: readonly { code: string; label: string }[] = [
  { code: "en-US", label: "English (United States)" },
  { code: "en-GB", label: "English (United Kingdom)" },
  { code: "es-ES", label: "Spanish (Spain)" },
  { code: "es-MX", label: "Spanish (Mexico)" },
  { code: "fr-FR", label: "French" },
  { code: "de-DE", label: "German" },
];

export function findVoice(id: string | null | undefined): AgentVoice | undefined {
  return AGENT_VOICES.find((voice) => voice.id === id);
}
