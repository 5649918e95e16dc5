import type { AgentVoice } from "@switchboard/core";
import { httpFailure, pcmChunks } from "./pcm-stream.ts";
import type { TtsProvider, TtsVoice } from "./tts-provider.ts";

/** What every hosted synthesiser needs: where, with which key and model, and the voice used by default. */
export type HostedTtsSettings = { baseUrl: string; apiKey: string; model: string; voice: string };

/**
 * One hosted text-to-speech API: how to ask for a sentence as raw PCM16, at which sample rate it answers,
 * and the voices it offers (the agent voices map to them by `voiceFor`).
 */
type HostedApi = {
  name: string;
  sampleRate: number;
  request(text: string, voice: string, settings: HostedTtsSettings): { url: string; init: RequestInit };
  voices: TtsVoice[];
};

function hostedTts(
  api: HostedApi,
  settings: HostedTtsSettings,
): TtsProvider & {
  voiceFor(voice: AgentVoice): string;
} {
  const known = new Set(api.voices.map((voice) => voice.id));
  return {
    name: api.name,
    defaultVoice: settings.voice,
    unavailable: () => null,
    voices: async () => api.voices,
    /** An agent voice on this provider: one of its voices of the same gender, else the configured one. */
    voiceFor(voice: AgentVoice) {
      if (known.has(voice.engineVoice)) return voice.engineVoice;
      const female = /\+f\d$/.test(voice.engineVoice);
      const match = api.voices.find((candidate) => candidate.gender === (female ? "female" : "male"));
      return match?.id ?? settings.voice;
    },
    async *synthesize(text, { voice, signal } = {}) {
      if (signal?.aborted || !text.trim()) return;
      const chosen = voice && known.has(voice) ? voice : settings.voice;
      const { url, init } = api.request(text, chosen, settings);
      const response = await fetch(url, { ...init, ...(signal ? { signal } : {}) });
      if (!response.ok || !response.body) throw await httpFailure(api.name, response);
      yield* pcmChunks(response.body as AsyncIterable<Uint8Array>, api.sampleRate, signal);
    },
  };
}

const json = (body: unknown, headers: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** OpenAI's (or a compatible server's) `POST /audio/speech`, `response_format: pcm`: 24 kHz PCM16. */
export function openaiTts(settings: HostedTtsSettings) {
  const voices = ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"];
  const female = new Set(["alloy", "coral", "nova", "sage", "shimmer"]);
  return hostedTts(
    {
      name: "openai-tts",
      sampleRate: 24_000,
      voices: voices.map((id) => ({
        id,
        name: id[0]?.toUpperCase() + id.slice(1),
        language: "multilingual",
        gender: female.has(id) ? "female" : "male",
      })),
      request: (text, voice, s) => ({
        url: `${s.baseUrl}/audio/speech`,
        init: json(
          { model: s.model, input: text, voice, response_format: "pcm" },
          { authorization: `Bearer ${s.apiKey}` },
        ),
      }),
    },
    settings,
  );
}

/** ElevenLabs' streaming `POST /v1/text-to-speech/{voice}/stream?output_format=pcm_16000`. */
export function elevenLabsTts(settings: HostedTtsSettings) {
  return hostedTts(
    {
      name: "elevenlabs",
      sampleRate: 16_000,
      // Premade voices every account has.
      voices: [
        { id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel", language: "multilingual", gender: "female" },
        { id: "EXAVITQu4vr4xnSDxMaL", name: "Sarah", language: "multilingual", gender: "female" },
        { id: "pNInz6obpgDQGcFmaJgB", name: "Adam", language: "multilingual", gender: "male" },
        { id: "ErXwobaYiN019PkySvjV", name: "Antoni", language: "multilingual", gender: "male" },
      ],
      request: (text, voice, s) => ({
        url: `${s.baseUrl}/v1/text-to-speech/${encodeURIComponent(voice)}/stream?output_format=pcm_16000`,
        init: json({ text, model_id: s.model }, { "xi-api-key": s.apiKey }),
      }),
    },
    settings,
  );
}

/** Cartesia's `POST /tts/bytes` with a raw `pcm_s16le` 16 kHz container. */
export function cartesiaTts(settings: HostedTtsSettings) {
  return hostedTts(
    {
      name: "cartesia",
      sampleRate: 16_000,
      // Cartesia's voices are many and per account: the configured one (CARTESIA voice id) speaks.
      voices: [{ id: settings.voice, name: "Configured voice", language: "multilingual", gender: null }],
      request: (text, voice, s) => ({
        url: `${s.baseUrl}/tts/bytes`,
        init: json(
          {
            model_id: s.model,
            transcript: text,
            voice: { mode: "id", id: voice },
            output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 16_000 },
          },
          { "x-api-key": s.apiKey, "cartesia-version": "2024-11-13" },
        ),
      }),
    },
    settings,
  );
}
