import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import WebSocket from "ws";
import { rms, toFrames } from "../src/audio/pcm.ts";
import { createCodecSession } from "../src/modules/voice/sip/audio-codec.ts";
import { twilioSignature } from "../src/providers/sms/twilio.ts";

/**
 * Twilio's side of a call, on loopback: the signed voice webhook, and a WebSocket client that speaks Media
 * Streams as Twilio does (connected, start with the TwiML's parameters, μ-law 8 kHz media in real time, marks
 * echoed when played, dtmf, stop).
 */

/** Posts Twilio's voice webhook for a call from +15035550199 to `to`, signed with `authToken` (or `signature`). */
export async function answerTwilioCall(
  app: FastifyInstance,
  authToken: string,
  callSid: string,
  options: { signature?: string; to: string },
) {
  const url = api.twilioVoiceAnswer.path;
  const params = { CallSid: callSid, From: "+15035550199", To: options.to, Direction: "inbound" };
  const signature =
    options.signature ?? twilioSignature(authToken, `${app.context.config.publicUrl}${url}`, params);
  return app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    payload: new URLSearchParams(params).toString(),
  });
}

/** The `<Parameter>`s of the answer's `<Stream>`. */
export function streamParametersOf(twiml: string): Record<string, string> {
  return Object.fromEntries(
    [...twiml.matchAll(/<Parameter name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [
      m[1] as string,
      (m[2] as string).replace(/&amp;/g, "&"),
    ]),
  );
}

type Sent = { event: string; media?: { payload: string }; mark?: { name: string }; streamSid?: string };

/** A Twilio media stream to the app listening on loopback: sends the caller's audio in real time, plays and collects what comes back. */
export function twilioStream(app: FastifyInstance, callSid: string, parameters: Record<string, string>) {
  const port = (app.server.address() as AddressInfo).port;
  const socket = new WebSocket(`ws://127.0.0.1:${port}${api.twilioMediaStream.path}`);
  const streamSid = `MZ${callSid.slice(2)}`;
  const codec = createCodecSession("PCMU");
  const decoder = createCodecSession("PCMU");
  const received: { at: number; message: Sent }[] = [];
  const played: { at: number; level: number }[] = [];
  const script: Int16Array[] = [];
  let closed = false;
  let sequence = 0;
  let timer: NodeJS.Timeout | null = null;
  const sendJson = (message: object) => {
    if (socket.readyState === 1)
      socket.send(JSON.stringify({ sequenceNumber: String(++sequence), ...message }));
  };
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as Sent;
    received.push({ at: performance.now(), message });
    if (message.event === "media" && message.media) {
      const samples = decoder.decode(Buffer.from(message.media.payload, "base64"));
      played.push({ at: performance.now(), level: rms(samples) });
    }
    // Twilio echoes a mark once the audio before it has played (here: at once).
    if (message.event === "mark") sendJson({ event: "mark", streamSid, mark: message.mark });
  });
  socket.on("close", () => {
    closed = true;
    if (timer) clearInterval(timer);
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.on("open", resolve);
    socket.on("error", reject);
  });
  let chunk = 0;
  let sent = 0;
  const sentAt = new Map<number, number>();
  void opened.then(() => {
    sendJson({ event: "connected", protocol: "Call", version: "1.0.0" });
    sendJson({
      event: "start",
      streamSid,
      start: {
        streamSid,
        accountSid: "AC0000",
        callSid,
        tracks: ["inbound"],
        mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
        customParameters: parameters,
      },
    });
    timer = setInterval(() => {
      const frame = script.shift() ?? new Int16Array(320);
      chunk++;
      sentAt.set(++sent, performance.now());
      sendJson({
        event: "media",
        streamSid,
        media: {
          track: "inbound",
          chunk: String(chunk),
          timestamp: String(chunk * 20),
          payload: codec.encode(frame).toString("base64"),
        },
      });
    }, 20);
  });
  return {
    received,
    played,
    opened,
    get closed() {
      return closed;
    },
    /** Queues speech; `voicedAt()` is when its first voiced frame was sent (once it was). */
    say(samples: Int16Array) {
      const frames = toFrames(samples);
      const firstVoiced = script.length + frames.findIndex((frame) => rms(frame) > 300);
      script.push(...frames);
      const sentBefore = sent;
      return { voicedAt: () => sentAt.get(sentBefore + firstVoiced + 1) ?? Number.NaN };
    },
    dtmf(digit: string) {
      sendJson({ event: "dtmf", streamSid, dtmf: { track: "inbound_track", digit } });
    },
    stop() {
      sendJson({ event: "stop", streamSid, stop: { accountSid: "AC0000", callSid } });
    },
    /** Resolves when speech came back and then nothing for `quietMs`. */
    async untilQuiet(quietMs = 600, timeoutMs = 45_000) {
      const from = played.length;
      const end = performance.now() + timeoutMs;
      for (;;) {
        const last = played.at(-1);
        if (played.length > from && last && performance.now() - last.at > quietMs) return;
        if (performance.now() > end) throw new Error("no speech came back in time");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
