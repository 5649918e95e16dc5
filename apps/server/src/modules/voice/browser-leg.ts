import type { WebSocket } from "@fastify/websocket";
import type { VoiceCallClientMessage, VoiceCallServerMessage } from "@switchboard/api";
import { FRAME_MS, FRAME_SAMPLES } from "../../audio/audio-format.ts";
import type { CallLeg, CallLegInfo } from "./call-leg.ts";

/**
 * The browser transport: a call leg over the test call's WebSocket. Binary messages from the browser are
 * PCM16 LE 16 kHz mono in any whole number of samples (an AudioWorklet sends what it has), cut here into
 * 20 ms frames; text messages are JSON control (`dtmf`, `hangup`). The agent's frames go out as binary
 * messages paced in real time, one every 20 ms against a clock computed from the start of each stretch of
 * speech (timer lateness never accumulates; late frames go out at once and the browser's jitter buffer
 * absorbs them). `clearAudio` drops the queue and tells the browser to drop what it has buffered.
 */

const FRAME_BYTES = FRAME_SAMPLES * 2;
const DTMF_DIGIT = /^[0-9*#A-D]$/;

export type BrowserCallLeg = {
  leg: CallLeg;
  /** Sends a control message while the socket is open. */
  send(message: VoiceCallServerMessage): void;
  /** Stops pacing and closes the socket (normal closure). */
  close(): void;
  /** True once the browser hung up or the socket closed. */
  readonly closed: boolean;
};

export function createBrowserCallLeg(socket: WebSocket, info: CallLegInfo): BrowserCallLeg {
  const audioListeners: ((frame: Int16Array) => void)[] = [];
  const dtmfListeners: ((digit: string) => void)[] = [];
  const hangupListeners: (() => void)[] = [];
  const playedListeners: ((frame: Int16Array, at: number) => void)[] = [];
  /** Bytes of an incomplete frame carried to the next message. */
  let pending = Buffer.alloc(0);
  const queue: Int16Array[] = [];
  /** The pacing clock of the current stretch of speech: its start and the frames sent since. */
  let clock: { start: number; sent: number } | null = null;
  let timer: NodeJS.Timeout | null = null;
  let hungUp = false;
  let closed = false;

  const open = () => !closed && socket.readyState === socket.OPEN;

  function send(message: VoiceCallServerMessage) {
    if (open()) socket.send(JSON.stringify(message));
  }

  function callerHungUp() {
    if (closed) return;
    closed = true;
    stopPacing();
    queue.length = 0;
    for (const listener of hangupListeners) listener();
  }

  function onBinary(data: Buffer) {
    const bytes = pending.length > 0 ? Buffer.concat([pending, data]) : data;
    const whole = bytes.length - (bytes.length % FRAME_BYTES);
    for (let at = 0; at < whole; at += FRAME_BYTES) {
      // Copied into its own aligned buffer (a Buffer's offset may be odd); PCM16 LE as the host reads it.
      const frame = new Int16Array(FRAME_SAMPLES);
      new Uint8Array(frame.buffer).set(bytes.subarray(at, at + FRAME_BYTES));
      for (const listener of audioListeners) listener(frame);
    }
    pending = Buffer.from(bytes.subarray(whole));
  }

  function onText(text: string) {
    let message: VoiceCallClientMessage;
    try {
      message = JSON.parse(text) as VoiceCallClientMessage;
    } catch {
      return;
    }
    if (message?.type === "hangup") {
      callerHungUp();
      socket.close(1000, "hangup");
    } else if (message?.type === "dtmf" && DTMF_DIGIT.test(String(message.digit))) {
      for (const listener of dtmfListeners) listener(message.digit);
    }
  }

  socket.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (closed) return;
    const buffer = Array.isArray(data)
      ? Buffer.concat(data)
      : data instanceof ArrayBuffer
        ? Buffer.from(data)
        : data;
    if (isBinary) onBinary(buffer);
    else onText(buffer.toString("utf8"));
  });
  socket.once("close", callerHungUp);

  function stopPacing() {
    if (timer) clearTimeout(timer);
    timer = null;
    clock = null;
  }

  /**
   * Sends every frame that is due by the clock (frame n of a stretch at start + n × 20 ms), then sleeps until
   * the next one is. A frame queued after a gap (its slot already more than a frame in the past) starts a
   * new stretch, so silence is not made up for with a burst.
   */
  function pump() {
    timer = null;
    if (!open() || queue.length === 0) return;
    const now = performance.now();
    if (!clock || clock.start + clock.sent * FRAME_MS < now - FRAME_MS) clock = { start: now, sent: 0 };
    while (queue.length > 0 && clock.start + clock.sent * FRAME_MS <= now) {
      const frame = queue.shift() as Int16Array;
      socket.send(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength), { binary: true });
      for (const listener of playedListeners) listener(frame, clock.start + clock.sent * FRAME_MS);
      clock.sent++;
    }
    if (queue.length > 0)
      timer = setTimeout(pump, Math.max(0, clock.start + clock.sent * FRAME_MS - performance.now()));
  }

  const leg: CallLeg = {
    info,
    onAudio: (listener) => audioListeners.push(listener),
    onDtmf: (listener) => dtmfListeners.push(listener),
    // A socket that closed before the call was set up still tells the pipeline.
    onHangup: (listener) => (closed ? queueMicrotask(listener) : hangupListeners.push(listener)),
    onPlayed: (listener) => void playedListeners.push(listener),
    sendAudio(frame) {
      if (hungUp || closed) return;
      if (frame.length !== FRAME_SAMPLES) throw new Error(`frames are ${FRAME_SAMPLES} samples`);
      queue.push(frame);
      if (!timer) pump();
    },
    clearAudio() {
      queue.length = 0;
      stopPacing();
      send({ type: "clear" });
    },
    queuedFrames: () => queue.length,
    hangup() {
      // The route sends `ended` with the call's outcome and closes the socket once the call is stored.
      hungUp = true;
      queue.length = 0;
      stopPacing();
    },
  };

  return {
    leg,
    send,
    close() {
      closed = true;
      stopPacing();
      queue.length = 0;
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(1000);
    },
    get closed() {
      return closed;
    },
  };
}
