import { SAMPLE_RATE } from "../../audio/audio-format.ts";
import { encodeWav } from "../../audio/pcm.ts";
import { connectWebSocket, WS_CONNECTING, WS_OPEN } from "../ws-client.ts";
import type { SttProvider, SttStream } from "./stt-provider.ts";

export type HostedSttSettings = { baseUrl: string; apiKey: string; model: string; language?: string };

/**
 * An OpenAI-compatible transcription API (`POST /audio/transcriptions`, multipart: a WAV of the utterance and
 * the model). Not streaming: the utterance is sent when the turn ends, so its time counts in the reply's.
 */
export function openaiStt(settings: HostedSttSettings): SttProvider {
  return {
    name: "openai-stt",
    unavailable: () => null,
    hearsNarrowband: true,
    close() {},
    start(): SttStream {
      const frames: Int16Array[] = [];
      const aborted = new AbortController();
      return {
        write: (frame) => void frames.push(frame),
        abort: () => aborted.abort(),
        async finish() {
          const length = frames.reduce((sum, frame) => sum + frame.length, 0);
          if (length === 0) return "";
          const samples = new Int16Array(length);
          let at = 0;
          for (const frame of frames) {
            samples.set(frame, at);
            at += frame.length;
          }
          const form = new FormData();
          form.append("file", new Blob([encodeWav(samples, SAMPLE_RATE)], { type: "audio/wav" }), "turn.wav");
          form.append("model", settings.model);
          if (settings.language) form.append("language", settings.language);
          form.append("response_format", "json");
          const response = await fetch(`${settings.baseUrl}/audio/transcriptions`, {
            method: "POST",
            headers: { authorization: `Bearer ${settings.apiKey}` },
            body: form,
            signal: aborted.signal,
          });
          if (!response.ok)
            throw new Error(
              `openai-stt answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
            );
          return (((await response.json()) as { text?: string }).text ?? "").trim();
        },
      };
    },
  };
}

type DeepgramResult = {
  type?: string;
  is_final?: boolean;
  channel?: { alternatives?: { transcript?: string; confidence?: number }[] };
};

/**
 * Deepgram's streaming recognition (`/v1/listen` over a WebSocket, linear16 at 16 kHz): frames go out as the
 * caller speaks, final results come back while they do, and the turn's text is ready a moment after
 * `CloseStream` — the recognition itself overlaps the speech.
 */
export function deepgramStt(settings: HostedSttSettings): SttProvider {
  const wsBase = settings.baseUrl.replace(/^http/, "ws");
  return {
    name: "deepgram",
    unavailable: () => null,
    hearsNarrowband: true,
    close() {},
    start(): SttStream {
      const query = new URLSearchParams({
        encoding: "linear16",
        sample_rate: String(SAMPLE_RATE),
        channels: "1",
        model: settings.model,
        punctuate: "true",
        smart_format: "true",
        ...(settings.language ? { language: settings.language } : {}),
      });
      const socket = connectWebSocket(`${wsBase}/v1/listen?${query.toString()}`, {
        authorization: `Token ${settings.apiKey}`,
      });
      const pending: Buffer[] = [];
      const finals: string[] = [];
      const confidences: number[] = [];
      let failure: Error | null = null;
      const closed = new Promise<void>((resolve) => {
        socket.once("close", () => resolve());
        // Kept for the socket's life: a second error must not go unheard (it would end the process).
        socket.on("error", (error) => {
          failure ??= error;
          resolve();
        });
      });
      socket.once("open", () => {
        for (const chunk of pending.splice(0)) socket.send(chunk);
      });
      socket.on("message", (data) => {
        let message: DeepgramResult;
        try {
          message = JSON.parse(String(data)) as DeepgramResult;
        } catch {
          return;
        }
        const best = message.channel?.alternatives?.[0];
        const text = best?.transcript?.trim();
        if (message.type === "Results" && message.is_final && text) {
          finals.push(text);
          if (typeof best?.confidence === "number") confidences.push(best.confidence);
        }
      });
      const send = (data: Buffer | string) => {
        if (socket.readyState === WS_OPEN) socket.send(data);
        else if (socket.readyState === WS_CONNECTING && typeof data !== "string") pending.push(data);
      };
      return {
        write: (frame) => send(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)),
        abort: () => socket.terminate(),
        confidence: () =>
          confidences.length ? confidences.reduce((sum, value) => sum + value, 0) / confidences.length : null,
        async finish() {
          if (socket.readyState === WS_CONNECTING)
            await new Promise<void>((resolve) => {
              socket.once("open", resolve);
              socket.once("error", () => resolve());
            });
          send(JSON.stringify({ type: "CloseStream" }));
          const timeout = setTimeout(() => socket.terminate(), 10_000);
          await closed;
          clearTimeout(timeout);
          if (failure && finals.length === 0) throw failure;
          return finals.join(" ");
        },
      };
    },
  };
}
