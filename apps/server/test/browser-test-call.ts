/**
 * A browser test call as the web app makes it, for tests: a WebSocket to `base` (ws://host:port) that streams
 * a microphone in real time (a script of frames, else silence) and records what arrives (messages, and
 * paced agent frames with their time and level).
 */
import type { VoiceCallServerMessage } from "@switchboard/api";
import WebSocket from "ws";
import { FRAME_MS, FRAME_SAMPLES } from "../src/audio/audio-format.ts";
import { rms } from "../src/audio/pcm.ts";

/** A call from the "browser": records what arrives, and streams the microphone (script, else silence). */
export function dialBrowser(base: string, query: string, path = "/api/v1/voice/call") {
  const socket = new WebSocket(`${base}${path}?${query}`);
  const messages: VoiceCallServerMessage[] = [];
  const frames: { at: number; level: number; bytes: number }[] = [];
  const script: Int16Array[] = [];
  let refused: number | null = null;
  let closed = false;
  socket.on("message", (raw, isBinary) => {
    const data = raw as Buffer;
    if (isBinary) {
      const copy = new Int16Array(new Uint8Array(data).buffer.slice(0));
      frames.push({ at: performance.now(), level: rms(copy), bytes: data.length });
    } else messages.push(JSON.parse(String(data)) as VoiceCallServerMessage);
  });
  socket.on("unexpected-response", (_request, response) => {
    refused = response.statusCode ?? null;
    closed = true;
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
  });
  // The microphone: 20 ms of audio per tick, drift-free, sent as two uneven messages (an AudioWorklet's
  // 128-sample quanta do not line up with 20 ms frames either).
  const quiet = new Int16Array(FRAME_SAMPLES);
  const start = performance.now();
  let ticks = 0;
  let mic: NodeJS.Timeout | null = null;
  const tick = () => {
    const due = Math.floor((performance.now() - start) / FRAME_MS);
    while (ticks < due && socket.readyState === 1) {
      ticks++;
      const frame = script.shift() ?? quiet;
      const bytes = new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
      socket.send(bytes.subarray(0, 202));
      socket.send(bytes.subarray(202));
    }
    if (!closed) mic = setTimeout(tick, 10);
  };
  socket.on("open", tick);
  return {
    socket,
    messages,
    frames,
    get refused() {
      return refused;
    },
    get closed() {
      return closed;
    },
    say(samples: Int16Array) {
      for (let at = 0; at < samples.length; at += FRAME_SAMPLES) {
        const frame = new Int16Array(FRAME_SAMPLES);
        frame.set(samples.subarray(at, at + FRAME_SAMPLES));
        script.push(frame);
      }
    },
    captions: (role: "caller" | "agent") =>
      messages.flatMap((m) => (m.type === "caption" && m.role === role && m.final ? [m.text] : [])),
    stop() {
      if (mic) clearTimeout(mic);
      closed = true;
    },
  };
}
