import type { WebSocket } from "@fastify/websocket";
import { FRAME_MS, FRAME_SAMPLES } from "../../../audio/audio-format.ts";
import { createFramer } from "../../../audio/pcm.ts";
import type { TwilioCalls } from "../../../providers/numbers/twilio-calls.ts";
import type { CallLeg, CallLegInfo, HandOver, TransferResult } from "../call-leg.ts";
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

const xml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string,
  );

/** Seconds past the destination's ring time that a hand-over waits for Twilio's word before it counts as failed. */
const HANDOVER_MARGIN_S = 15;
/** How long a hand-over that was not answered waits for Twilio to connect the caller's stream again. */
const RESUME_WAIT_MS = 15_000;

/**
 * A cold transfer by Twilio itself: the call is updated with `<Dial>` to the destination, so Twilio stops the
 * stream (that `stop` is not the caller hanging up) and rings it. Twilio then tells `actionUrl` how the dial
 * ended (`DialCallStatus`) and `statusUrl` when the destination rings and answers; the route hands both to
 * `dialEvent`. When nobody answered, the action's TwiML connects the caller to a new stream, which `resume`
 * gives to this same leg, and the call goes on.
 */
export type TwilioHandOverSetup = {
  calls: TwilioCalls;
  /** Absolute URLs (Twilio refuses relative ones when a call is updated with TwiML). */
  actionUrl: string;
  statusUrl: string;
  /** While true, the route sends this call's dial callbacks and resumed stream to this leg. */
  watch(on: boolean): void;
};

/** What Twilio said of the dialled call: a status callback (`CallStatus`) or the `<Dial>`'s end (action). */
export type TwilioDialEvent =
  | { step: "status"; callStatus: string }
  | { step: "action"; dialCallStatus: string; callStatus: string };

/** The `<Dial>` that hands the call to `target` (E.164, `tel:` or a SIP URI). */
export function dialTwiml(
  target: string,
  ringSeconds: number,
  setup: Pick<TwilioHandOverSetup, "actionUrl" | "statusUrl">,
) {
  const status = `statusCallbackEvent="ringing answered" statusCallback="${xml(setup.statusUrl)}" statusCallbackMethod="POST"`;
  const noun = /^sips?:/i.test(target)
    ? `<Sip ${status}>${xml(target)}</Sip>`
    : `<Number ${status}>${xml(target.replace(/^tel:/i, ""))}</Number>`;
  const timeout = Math.max(5, Math.min(600, Math.round(ringSeconds)));
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Dial timeout="${timeout}" action="${xml(setup.actionUrl)}" method="POST">${noun}</Dial></Response>`;
}

/** A `<Dial>`'s `DialCallStatus` as a transfer's result. */
export function dialResult(dialCallStatus: string): TransferResult {
  if (dialCallStatus === "completed" || dialCallStatus === "answered") return "answered";
  if (dialCallStatus === "busy") return "busy";
  if (dialCallStatus === "no-answer") return "no_answer";
  return "failed";
}

export type TwilioStreamLeg = {
  /** The stream's `start` (null when the socket closed or `waitMs` passed first, or it was not μ-law 8 kHz). */
  started(waitMs: number): Promise<TwilioStart | null>;
  /**
   * The call leg, once started, with the caller and called numbers Twilio passed as parameters; with
   * `handOver`, cold transfers update the call with `<Dial>` (without, the pipeline bridges a new leg).
   */
  leg(
    info: Omit<CallLegInfo, "transport" | "narrowband" | "callId">,
    handOver?: TwilioHandOverSetup,
  ): CallLeg;
  /** Twilio's word on a hand-over's dialled call (the route's callbacks); false when none is under way. */
  dialEvent(event: TwilioDialEvent): boolean;
  /** Whether a hand-over that was not answered waits for the caller's new stream. */
  readonly awaitingResume: boolean;
  /** The caller's new stream after a hand-over nobody answered: it carries this leg from now on. */
  resume(next: TwilioStreamLeg): boolean;
  /** Gives up the socket without closing it (it was resumed into another leg). */
  release(): { socket: WebSocket; start: TwilioStart } | null;
  /** Marks sent and not yet played back (Twilio echoes each when playback reaches it). */
  readonly pendingMarks: number;
  close(): void;
};

export function createTwilioStreamLeg(first: WebSocket): TwilioStreamLeg {
  let socket = first;
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
  /** A hand-over under way: Twilio's stream may stop without the caller leaving. */
  let handing: {
    settle(answer: HandOver): void;
    /** Accepted by Twilio: the stream stops and the result comes by callback. */
    accepted: boolean;
    /** The stream stopped while handing over. */
    detached: boolean;
  } | null = null;
  let resumeTimer: NodeJS.Timeout | null = null;
  /** Twilio connected the caller to the destination: the stream's end is no longer ours to report. */
  let handedOver = false;
  let handOverSetup: TwilioHandOverSetup | null = null;

  const open = () => !closed && !handing?.detached && socket.readyState === socket.OPEN;
  const send = (message: object) => {
    if (open()) socket.send(JSON.stringify(message));
  };

  function ended() {
    if (closed || handedOver) return;
    if (handing || resumeTimer) {
      // Twilio ended the stream to run the <Dial> (or the caller's stream between dial and resume).
      if (handing) handing.detached = true;
      stopPacing();
      return;
    }
    hangUp();
  }

  /** The caller is gone: listeners told once. */
  function hangUp() {
    if (closed) return;
    if (resumeTimer) clearTimeout(resumeTimer);
    resumeTimer = null;
    handOverSetup?.watch(false);
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
      case "stop": {
        const stopped = socket;
        ended();
        stopped.close(1000);
        return;
      }
      default:
    }
  }

  let released = false;
  function bind(bound: WebSocket) {
    bound.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
      if (closed || released || bound !== socket) return;
      const buffer = Array.isArray(data)
        ? Buffer.concat(data)
        : data instanceof ArrayBuffer
          ? Buffer.from(data)
          : data;
      onMessage(buffer.toString("utf8"));
    });
    bound.once("close", () => {
      if (!released && bound === socket) ended();
    });
  }
  bind(socket);

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

  function settleHandOver(answer: HandOver) {
    const current = handing;
    if (!current) return;
    handing = null;
    if (answer.kind === "done" && answer.result === "answered") {
      handOverSetup?.watch(false);
      handedOver = true;
      // The pipeline hangs up its side (the stream is Twilio's <Dial> now); if it does not, the caller left.
      setTimeout(() => {
        handedOver = false;
        hangUp();
      }, 5000).unref();
    } else if (answer.kind === "refused" && current.detached) {
      // Twilio did not take the update, yet the stream ended: the caller hung up meanwhile.
      queueMicrotask(hangUp);
    }
    current.settle(answer);
  }

  function handOverTo(target: string, options: { ringSeconds: number }, setup: TwilioHandOverSetup) {
    if (closed || !start)
      return Promise.resolve<HandOver>({
        kind: "refused",
        asked: false,
        status: null,
        detail: "the call has ended",
      });
    if (handing || resumeTimer)
      return Promise.resolve<HandOver>({
        kind: "refused",
        asked: false,
        status: null,
        detail: "a hand-over is under way",
      });
    const callSid = start.callSid;
    return new Promise<HandOver>((resolve) => {
      const timeout = setTimeout(
        () => {
          const late = handing;
          settleHandOver({
            kind: "done",
            result: "failed",
            status: null,
            detail: "no word from Twilio in time",
          });
          // Twilio took the call for its <Dial> and said nothing since: the caller is not ours to talk to.
          if (late?.accepted || late?.detached)
            queueMicrotask(() => {
              hangUp();
              if (socket.readyState === socket.OPEN) socket.close(1000);
            });
        },
        (options.ringSeconds + HANDOVER_MARGIN_S) * 1000,
      );
      handing = {
        settle: (answer) => {
          clearTimeout(timeout);
          resolve(answer);
        },
        accepted: false,
        detached: false,
      };
      const current = handing;
      setup.watch(true);
      setup.calls.update(callSid, dialTwiml(target, options.ringSeconds, setup)).then(
        (update) => {
          if (handing !== current) return;
          if (!update.ok) {
            setup.watch(false);
            settleHandOver({ kind: "refused", asked: true, status: update.status, detail: update.detail });
            return;
          }
          // Twilio runs the <Dial> now: what was queued for the caller will not be heard.
          current.accepted = true;
          queue.length = 0;
          stopPacing();
        },
        (error: unknown) => {
          if (handing !== current) return;
          setup.watch(false);
          settleHandOver({
            kind: "refused",
            asked: true,
            status: null,
            detail: error instanceof Error ? error.message : String(error),
          });
        },
      );
    });
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
    leg(addresses, handOver) {
      const stream = () => start as TwilioStart;
      handOverSetup = handOver ?? null;
      return {
        info: { ...addresses, transport: "twilio", callId: stream().callSid, narrowband: true },
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
          send({ event: "clear", streamSid: stream().streamSid });
        },
        queuedFrames: () => queue.length,
        // Closing the stream ends <Connect>; with no TwiML after it, Twilio hangs up the call.
        hangup() {
          closed = true;
          stopPacing();
          queue.length = 0;
          if (resumeTimer) clearTimeout(resumeTimer);
          resumeTimer = null;
          handOverSetup?.watch(false);
          if (socket.readyState === socket.OPEN) socket.close(1000, "hangup");
        },
        ...(handOver ? { handOver: (target, options) => handOverTo(target, options, handOver) } : {}),
      };
    },
    dialEvent(event) {
      if (!handing?.accepted) return false;
      if (event.step === "status") {
        // The destination picked up: the caller is theirs now.
        if (event.callStatus === "in-progress" || event.callStatus === "answered")
          settleHandOver({ kind: "done", result: "answered", status: null, detail: "answered" });
        return true;
      }
      const result = dialResult(event.dialCallStatus);
      if (result === "answered") {
        settleHandOver({
          kind: "done",
          result,
          status: null,
          detail: `DialCallStatus ${event.dialCallStatus}`,
        });
        return true;
      }
      const callerGone = event.callStatus === "completed" || event.callStatus === "canceled";
      settleHandOver({
        kind: "done",
        result,
        status: null,
        detail: callerGone
          ? `DialCallStatus ${event.dialCallStatus}; the caller hung up`
          : `DialCallStatus ${event.dialCallStatus}`,
      });
      if (callerGone) {
        hangUp();
        return true;
      }
      // The action's TwiML connects the caller's new stream: until then what the agent says waits here.
      resumeTimer = setTimeout(() => {
        resumeTimer = null;
        hangUp();
      }, RESUME_WAIT_MS);
      return true;
    },
    get awaitingResume() {
      return resumeTimer !== null && !closed;
    },
    resume(next) {
      if (!resumeTimer || closed) return false;
      const taken = next.release();
      if (!taken) return false;
      clearTimeout(resumeTimer);
      resumeTimer = null;
      handOverSetup?.watch(false);
      socket = taken.socket;
      start = { ...(start as TwilioStart), streamSid: taken.start.streamSid };
      bind(socket);
      clock = null;
      if (queue.length > 0 && !timer) pump();
      return true;
    },
    release() {
      if (closed || released || !start) return null;
      released = true;
      stopPacing();
      return { socket, start };
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
