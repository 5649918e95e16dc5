import type { WebSocket } from "@fastify/websocket";
import { FRAME_MS, FRAME_SAMPLES } from "../../../audio/audio-format.ts";
import { createFramer } from "../../../audio/pcm.ts";
import type { CallLeg, CallLegInfo } from "../call-leg.ts";
import { createCodecSession } from "../sip/audio-codec.ts";

/**
 * Twilio Media Streams (`<Connect><Stream>`): a call leg over Twilio's WebSocket. Twilio sends JSON text
 * messages — `connected`, `start` (the stream and call ids, custom parameters), `media` (base64 μ-law 8 kHz
 * mono, 20 ms a message), `dtmf`, `mark` (a mark we sent has been played) and `stop` — and plays the `media`
 * we send back in order; `clear` empties what it has buffered (barge-in), `mark` asks to be told when
 * playback reaches a point. Caller audio is decoded and resampled to the pipeline's 16 kHz frames here; the
 * agent's frames are encoded back and paced in real time, so at most a frame or two waits at Twilio and a
 * barge-in silences the caller at once (no seconds of speech buffered at the carrier).
 */

export type TwilioStart = {
  streamSid: string;
  callSid: string;
  accountSid: string;
  customParameters: Record<string, string>;
  /** What Twilio says it sends: `audio/x-mulaw` at 8000 Hz, mono. */
  mediaFormat: { encoding: string; sampleRate: number; channels: number };
};

/** Messages Twilio sends (the fields the leg reads). */
type TwilioMessage =
  | { event: "connected"; protocol?: string; version?: string }
  | { event: "start"; streamSid?: string; start?: Partial<TwilioStart> }
  | { event: "media"; media?: { payload?: string; track?: string } }
  | { event: "dtmf"; dtmf?: { digit?: string } }
  | { event: "mark"; mark?: { name?: string } }
  | { event: "stop" };

const DTMF_DIGIT = /^[0-9*#A-D]$/;

export type TwilioStreamLeg = {
  /** The stream's `start` (null when the socket closed or `waitMs` passed first, or it was not μ-law 8 kHz). */
  started(waitMs: number): Promise<TwilioStart | null>;
  /** The call leg, once started, with the caller and called numbers Twilio passed as parameters. */
  leg(info: Omit<CallLegInfo, "transport" | "narrowband" | "callId">): CallLeg;
  /** Marks sent and not yet played back (Twilio echoes each when playback reaches it). */
  readonly pendingMarks: number;
  close(): void;
};

export function createTwilioStreamLeg(socket: WebSocket): TwilioStreamLeg {
  const audioListeners: ((frame: Int16Array) => void)[] = [];
  const dtmfListeners: ((digit: string) => void)[] = [];
  const hangupListeners: (() => void)[] = [];
  const playedListeners: ((frame: Int16Array, at: number) => void)[] = [];
  const codec = createCodecSession("PCMU");
  const framer = createFramer();
  const queue: Int16Array[] = [];
  const marks = new Set<string>();
  let markCount = 0;
  let start: TwilioStart | null = null;
  let onStart: ((start: TwilioStart | null) => void) | null = null;
  let clock: { start: number; sent: number } | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const open = () => !closed && socket.readyState === socket.OPEN;
  const send = (message: object) => {
    if (open()) socket.send(JSON.stringify(message));
  };

  function ended() {
    if (closed) return;
    closed = true;
    stopPacing();
    queue.length = 0;
    onStart?.(null);
    for (const listener of hangupListeners) listener();
  }

  function onMessage(text: string) {
    let message: TwilioMessage;
    try {
      message = JSON.parse(text) as TwilioMessage;
    } catch {
      return;
    }
    switch (message?.event) {
      case "start": {
        const given = message.start ?? {};
        const format = given.mediaFormat;
        const streamSid = given.streamSid ?? message.streamSid;
        if (start || !streamSid || !given.callSid) return;
        if (format && (format.encoding !== "audio/x-mulaw" || Number(format.sampleRate) !== 8000)) {
          onStart?.(null);
          return;
        }
        start = {
          streamSid,
          callSid: given.callSid,
          accountSid: given.accountSid ?? "",
          customParameters: given.customParameters ?? {},
          mediaFormat: format ?? { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
        };
        onStart?.(start);
        return;
      }
      case "media": {
        const payload = message.media?.payload;
        if (!start || typeof payload !== "string") return;
        if (message.media?.track && message.media.track !== "inbound") return;
        const samples = codec.decode(Buffer.from(payload, "base64"));
        for (const frame of framer.push(samples)) for (const listener of audioListeners) listener(frame);
        return;
      }
      case "dtmf": {
        const digit = String(message.dtmf?.digit ?? "");
        if (DTMF_DIGIT.test(digit)) for (const listener of dtmfListeners) listener(digit);
        return;
      }
      case "mark":
        marks.delete(String(message.mark?.name ?? ""));
        return;
      case "stop":
        ended();
        socket.close(1000);
        return;
      default:
    }
  }

  socket.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
    if (closed) return;
    const buffer = Array.isArray(data)
      ? Buffer.concat(data)
      : data instanceof ArrayBuffer
        ? Buffer.from(data)
        : data;
    onMessage(buffer.toString("utf8"));
  });
  socket.once("close", ended);

  function stopPacing() {
    if (timer) clearTimeout(timer);
    timer = null;
    clock = null;
  }

  /** Sends the frames due by the clock (frame n of a stretch at start + n × 20 ms); a mark ends a stretch. */
  function pump() {
    timer = null;
    if (!open() || !start || queue.length === 0) return;
    const now = performance.now();
    if (!clock || clock.start + clock.sent * FRAME_MS < now - FRAME_MS) clock = { start: now, sent: 0 };
    while (queue.length > 0 && clock.start + clock.sent * FRAME_MS <= now) {
      const frame = queue.shift() as Int16Array;
      send({
        event: "media",
        streamSid: start.streamSid,
        media: { payload: codec.encode(frame).toString("base64") },
      });
      for (const listener of playedListeners) listener(frame, clock.start + clock.sent * FRAME_MS);
      clock.sent++;
    }
    if (queue.length > 0)
      timer = setTimeout(pump, Math.max(0, clock.start + clock.sent * FRAME_MS - performance.now()));
    else {
      const name = `speech-${++markCount}`;
      marks.add(name);
      send({ event: "mark", streamSid: start.streamSid, mark: { name } });
    }
  }

  return {
    started(waitMs) {
      if (start || closed) return Promise.resolve(start);
      return new Promise((resolve) => {
        const timeout = setTimeout(() => resolve(null), waitMs);
        onStart = (value) => {
          clearTimeout(timeout);
          onStart = null;
          resolve(value);
        };
      });
    },
    leg(addresses) {
      const stream = start as TwilioStart;
      return {
        info: { ...addresses, transport: "twilio", callId: stream.callSid, narrowband: true },
        onAudio: (listener) => audioListeners.push(listener),
        onDtmf: (listener) => dtmfListeners.push(listener),
        onHangup: (listener) => (closed ? queueMicrotask(listener) : hangupListeners.push(listener)),
        onPlayed: (listener) => void playedListeners.push(listener),
        sendAudio(frame) {
          if (closed) return;
          if (frame.length !== FRAME_SAMPLES) throw new Error(`frames are ${FRAME_SAMPLES} samples`);
          queue.push(frame);
          if (!timer) pump();
        },
        clearAudio() {
          queue.length = 0;
          stopPacing();
          marks.clear();
          send({ event: "clear", streamSid: stream.streamSid });
        },
        queuedFrames: () => queue.length,
        // Closing the stream ends <Connect>; with no TwiML after it, Twilio hangs up the call.
        hangup() {
          closed = true;
          stopPacing();
          queue.length = 0;
          if (socket.readyState === socket.OPEN) socket.close(1000, "hangup");
        },
      };
    },
    get pendingMarks() {
      return marks.size;
    },
    close() {
      closed = true;
      stopPacing();
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(1000);
    },
  };
}
