import { VOICE_MESSAGES } from "@switchboard/api";
import { findVoice } from "@switchboard/core";
import { ApiError, notFound } from "../../api-error.ts";
import { encodeWav } from "../../audio/pcm.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";

/** What a voice says when no text is given, in its language. */
const SAMPLE_BY_LANGUAGE: Record<string, string> = {
  en: "Hi, thanks for calling. How can I help you today?",
  es: "Hola, gracias por llamar. ¿En qué puedo ayudarle hoy?",
  fr: "Bonjour, merci de votre appel. Comment puis-je vous aider aujourd'hui ?",
  de: "Hallo, danke für Ihren Anruf. Wie kann ich Ihnen heute helfen?",
};

/** Samples kept (voice and text); a picker plays the same few again and again. */
const CACHE_LIMIT = 64;

/**
 * Voice samples for the voice pickers: the agent voice's engine voice speaks the text through the same
 * text-to-speech provider calls use, as a WAV. Made once per voice and text, then served from memory.
 */
export function createVoicePreviews(tts: TtsProvider) {
  const cache = new Map<string, Promise<Uint8Array>>();
  return async function preview(voiceId: string, text?: string): Promise<Uint8Array> {
    const voice = findVoice(voiceId);
    if (!voice) throw notFound(VOICE_MESSAGES.unknownVoice);
    const unavailable = tts.unavailable();
    if (unavailable) throw new ApiError(503, unavailable);
    const sample = text ?? SAMPLE_BY_LANGUAGE[voice.language.slice(0, 2)] ?? SAMPLE_BY_LANGUAGE.en ?? "";
    const key = `${voice.id}\n${sample}`;
    let made = cache.get(key);
    if (!made) {
      made = (async () => {
        const chunks: Int16Array[] = [];
        for await (const chunk of tts.synthesize(sample, {
          voice: tts.voiceFor?.(voice) ?? voice.engineVoice,
        }))
          chunks.push(chunk);
        const samples = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
        let at = 0;
        for (const chunk of chunks) {
          samples.set(chunk, at);
          at += chunk.length;
        }
        return encodeWav(samples);
      })();
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(key, made);
      made.catch(() => cache.delete(key));
    }
    return made;
  };
}
