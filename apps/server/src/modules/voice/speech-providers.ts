import type { Config } from "../../config.ts";
import { deepgramStt, openaiStt } from "../../providers/stt/hosted-stt.ts";
import { pocketsphinxStt } from "../../providers/stt/pocketsphinx.ts";
import type { SttProvider } from "../../providers/stt/stt-provider.ts";
import { espeakTts } from "../../providers/tts/espeak-ng.ts";
import { cartesiaTts, elevenLabsTts, openaiTts } from "../../providers/tts/hosted-tts.ts";
import type { TtsProvider } from "../../providers/tts/tts-provider.ts";

/** The recogniser STT_PROVIDER names (offline pocketsphinx by default). */
export function sttFromConfig(config: Config["speech"]["stt"], childNice?: number): SttProvider {
  if (config.provider === "deepgram") return deepgramStt(config);
  if (config.provider === "openai") return openaiStt(config);
  return pocketsphinxStt({ nice: childNice });
}

/** The synthesiser TTS_PROVIDER names (offline espeak-ng by default). */
export function ttsFromConfig(config: Config["speech"]["tts"], childNice?: number): TtsProvider {
  if (config.provider === "openai") return openaiTts(config);
  if (config.provider === "elevenlabs") return elevenLabsTts(config);
  if (config.provider === "cartesia") return cartesiaTts(config);
  return espeakTts({ nice: childNice });
}
