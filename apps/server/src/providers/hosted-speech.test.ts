// The hosted speech clients against local stand-ins that speak each provider's protocol: the requests they
// make (address, key, model, voice, audio format) and what they make of the answers (PCM at 16 kHz, text).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { findVoice } from "@switchboard/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { parseWav, toFrames } from "../audio/pcm.ts";
import { deepgramStt, openaiStt } from "./stt/hosted-stt.ts";
import { cartesiaTts, elevenLabsTts, openaiTts } from "./tts/hosted-tts.ts";

/** A 440 Hz tone as PCM16 bytes. */
function tone(rate: number, seconds: number): Buffer {
  const samples = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return Buffer.from(samples.buffer);
}

type Seen = { url: string; headers: http.IncomingHttpHeaders; body: Buffer };
const seen: Seen[] = [];
let base = "";
let server: http.Server;
let sockets: { close(): void };
const deepgram: { auth?: string; query?: string; bytes: number } = { bytes: 0 };

beforeAll(async () => {
  server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    seen.push({ url: request.url ?? "", headers: request.headers, body });
    const url = request.url ?? "";
    const sendPcm = (pcm: Buffer) => {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      // Uneven chunks: a sample's two bytes may arrive apart.
      for (let at = 0; at < pcm.length; at += 1001) response.write(pcm.subarray(at, at + 1001));
      response.end();
    };
    if (url === "/v1/audio/speech") {
      if (request.headers.authorization !== "Bearer good-key") {
        response.writeHead(401, { "content-type": "application/json" });
        return response.end('{"error":{"message":"Incorrect API key provided"}}');
      }
      return sendPcm(tone(24_000, 0.5));
    }
    if (url.startsWith("/v1/text-to-speech/")) return sendPcm(tone(16_000, 0.5));
    if (url === "/tts/bytes") return sendPcm(tone(16_000, 0.25));
    if (url === "/v1/audio/transcriptions") {
      const form = await new Response(body, {
        headers: { "content-type": request.headers["content-type"] ?? "" },
      }).formData();
      const file = form.get("file") as Blob;
      const wav = parseWav(new Uint8Array(await file.arrayBuffer()));
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(
        JSON.stringify({
          text: ` heard ${wav.samples.length} samples at ${wav.sampleRate} with ${form.get("model")} `,
        }),
      );
    }
    response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server });
  sockets = wss;
  wss.on(
    "connection",
    (
      socket: {
        on(e: string, l: (data: Buffer, binary: boolean) => void): void;
        send(d: string): void;
        close(): void;
      },
      request: http.IncomingMessage,
    ) => {
      deepgram.auth = request.headers.authorization;
      deepgram.query = request.url;
      deepgram.bytes = 0;
      socket.on("message", (data, binary) => {
        if (binary) {
          deepgram.bytes += data.length;
          return;
        }
        if (JSON.parse(String(data)).type !== "CloseStream") return;
        const result = (transcript: string) =>
          JSON.stringify({ type: "Results", is_final: true, channel: { alternatives: [{ transcript }] } });
        socket.send(
          JSON.stringify({
            type: "Results",
            is_final: false,
            channel: { alternatives: [{ transcript: "do" }] },
          }),
        );
        socket.send(result("Do you see"));
        socket.send(result("children?"));
        socket.close();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  sockets.close();
  await new Promise((resolve) => server.close(resolve));
});

async function collect(iterable: AsyncIterable<Int16Array>) {
  let total = 0;
  for await (const chunk of iterable) total += chunk.length;
  return total;
}

describe("hosted text to speech", () => {
  it("OpenAI-compatible: asks for pcm with the model and voice, and resamples 24 kHz to 16 kHz", async () => {
    const tts = openaiTts({
      baseUrl: `${base}/v1`,
      apiKey: "good-key",
      model: "gpt-4o-mini-tts",
      voice: "alloy",
    });
    const samples = await collect(tts.synthesize("Hello there.", { voice: "nova" }));
    expect(samples).toBeGreaterThan(7_800);
    expect(samples).toBeLessThan(8_200);
    const request = seen.at(-1) as Seen;
    expect(JSON.parse(request.body.toString())).toEqual({
      model: "gpt-4o-mini-tts",
      input: "Hello there.",
      voice: "nova",
      response_format: "pcm",
    });
    // An agent voice maps to one of the provider's voices of the same kind.
    expect(tts.voiceFor(findVoice("ava") as NonNullable<ReturnType<typeof findVoice>>)).toBe("alloy");
    expect(tts.voiceFor(findVoice("miles") as NonNullable<ReturnType<typeof findVoice>>)).toBe("ash");
  });

  it("says what the provider answered when it refuses", async () => {
    const tts = openaiTts({ baseUrl: `${base}/v1`, apiKey: "bad-key", model: "m", voice: "alloy" });
    await expect(collect(tts.synthesize("Hello."))).rejects.toThrow(
      /^openai-tts answered 401: .*Incorrect API key provided/,
    );
  });

  it("ElevenLabs: the voice in the path, 16 kHz pcm asked, its key in xi-api-key", async () => {
    const tts = elevenLabsTts({
      baseUrl: base,
      apiKey: "el-key",
      model: "eleven_flash_v2_5",
      voice: "21m00Tcm4TlvDq8ikWAM",
    });
    expect(await collect(tts.synthesize("Hi."))).toBe(8_000);
    const request = seen.at(-1) as Seen;
    expect(request.url).toBe("/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM/stream?output_format=pcm_16000");
    expect(request.headers["xi-api-key"]).toBe("el-key");
    expect(JSON.parse(request.body.toString())).toEqual({ text: "Hi.", model_id: "eleven_flash_v2_5" });
  });

  it("Cartesia: raw pcm_s16le at 16 kHz with the configured voice", async () => {
    const tts = cartesiaTts({ baseUrl: base, apiKey: "c-key", model: "sonic-2", voice: "voice-123" });
    expect(await collect(tts.synthesize("Hi."))).toBe(4_000);
    const request = seen.at(-1) as Seen;
    expect(request.headers["x-api-key"]).toBe("c-key");
    expect(request.headers["cartesia-version"]).toBeTruthy();
    expect(JSON.parse(request.body.toString())).toMatchObject({
      model_id: "sonic-2",
      transcript: "Hi.",
      voice: { mode: "id", id: "voice-123" },
      output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 16_000 },
    });
  });
});

describe("hosted speech to text", () => {
  const utterance = new Int16Array(tone(16_000, 1).buffer.slice(0));

  it("OpenAI-compatible: the turn as a 16 kHz WAV with the model, the answer's text", async () => {
    const stt = openaiStt({ baseUrl: `${base}/v1`, apiKey: "k", model: "gpt-4o-mini-transcribe" });
    const stream = stt.start();
    for (const frame of toFrames(utterance)) stream.write(frame);
    expect(await stream.finish()).toBe("heard 16000 samples at 16000 with gpt-4o-mini-transcribe");
    expect(seen.at(-1)?.headers.authorization).toBe("Bearer k");
    // Nothing heard, nothing sent.
    expect(await stt.start().finish()).toBe("");
  });

  it("Deepgram: frames stream over the socket as they come, final results joined after CloseStream", async () => {
    const stt = deepgramStt({ baseUrl: base, apiKey: "dg-key", model: "nova-3", language: "en-US" });
    const stream = stt.start();
    for (const frame of toFrames(utterance)) stream.write(frame);
    expect(await stream.finish()).toBe("Do you see children?");
    expect(deepgram.auth).toBe("Token dg-key");
    expect(deepgram.bytes).toBe(32_000);
    const query = new URLSearchParams(deepgram.query?.split("?")[1]);
    expect(Object.fromEntries(query)).toMatchObject({
      encoding: "linear16",
      sample_rate: "16000",
      channels: "1",
      model: "nova-3",
      language: "en-US",
    });
  });
});
