/**
 * The main thread's side of the media thread (media-thread.ts): RTP sessions with the same shape as the
 * in-loop ones (rtp-session.ts), whose socket, jitter buffer and 20 ms pacing live in the media thread.
 * Frames to send are posted ahead of time (one transferred buffer per burst the pipeline queues), a clear is
 * a "flush" message, and what the thread heard and played comes back batched once a tick. `onPlayed` times
 * are converted to this thread's performance.now() clock.
 *
 * If the thread dies, its calls' sessions report `onFailed` (the SIP server hangs those calls up) and the
 * next call starts a new thread.
 */
import { Worker } from "node:worker_threads";
import { FRAME_SAMPLES } from "../../../audio/audio-format.ts";
import type { FromMediaThread, MediaEvent, ToMediaThread } from "./media-thread-messages.ts";
import { createLatenessHistogram } from "./pacer.ts";
import type { RtpSession, RtpStats } from "./rtp-session.ts";
import type { NegotiatedAudio } from "./sdp.ts";

export type MediaSessionOptions = {
  host: string;
  silenceFill?: boolean;
  onAudio: (frame: Int16Array) => void;
  onDtmf: (digit: string) => void;
  onPlayed?: (frame: Int16Array, at: number) => void;
  /** The media thread died: this call has no media any more. */
  onFailed?: () => void;
};

export type MediaThread = {
  /** Ticks the media thread's pacer skipped (its event loop blocked longer than the catch-up allows). */
  readonly skipped: number;
  createSession(options: MediaSessionOptions): Promise<RtpSession>;
};

type Entry = {
  options: MediaSessionOptions;
  stats: RtpStats;
  /** Flushes sent; played reports of an older generation do not count against the queue. */
  gen: number;
  queued: number;
  closed: boolean;
  opened: (result: { port: number } | { error: string }) => void;
};

let shared: MediaThread | null = null;

/** The process's media thread (one for now; VOICE_MEDIA_THREADS would spread calls over several). */
export function sharedMediaThread(): MediaThread {
  shared ??= createMediaThread();
  return shared;
}

export function createMediaThread(options: { onError?: (error: unknown) => void } = {}): MediaThread {
  let worker: Worker | null = null;
  let offset = 0; // media thread clock + offset = this thread's clock
  let skipped = 0;
  let nextId = 1;
  const entries = new Map<number, Entry>();

  function start(): Worker {
    const thread = new Worker(new URL("./media-thread-bootstrap.mjs", import.meta.url), { execArgv: [] });
    thread.on("message", (message: FromMediaThread) => receive(message));
    thread.on("error", (error) => options.onError?.(error));
    thread.on("exit", () => {
      if (worker !== thread) return;
      worker = null;
      // Its calls have lost their media: each is told once; the next call starts a new thread.
      const lost = [...entries.values()];
      entries.clear();
      for (const entry of lost) {
        if (entry.closed) continue;
        entry.opened({ error: "the media thread stopped" });
        entry.options.onFailed?.();
      }
    });
    return thread;
  }

  /** The thread keeps the process up while it has calls (one being set up included), never after them. */
  function holdWhileBusy() {
    if (entries.size > 0) worker?.ref();
    else worker?.unref();
  }

  function send(message: ToMediaThread, transfer: ArrayBuffer[] = []) {
    worker?.postMessage(message, transfer);
  }

  function receive(message: FromMediaThread) {
    if (message.type === "ready") offset = message.timeOrigin - performance.timeOrigin;
    else if (message.type === "opened") entries.get(message.id)?.opened({ port: message.port });
    else if (message.type === "open-failed") {
      const entry = entries.get(message.id);
      entries.delete(message.id);
      holdWhileBusy();
      entry?.opened({ error: message.message });
    } else if (message.type === "batch") {
      skipped = message.skipped;
      for (const event of message.events) deliver(event);
    } else if (message.type === "closed") {
      entries.delete(message.id);
      holdWhileBusy();
    }
  }

  function deliver(event: MediaEvent) {
    const entry = entries.get(event.id);
    if (!entry) return;
    const { options: listeners } = entry;
    // After close only the last counters count: no audio, digits or plays reach a call that has ended.
    if (entry.closed && event.kind !== "counters") return;
    try {
      if (event.kind === "audio") listeners.onAudio(event.samples);
      else if (event.kind === "dtmf") listeners.onDtmf(event.digit);
      else if (event.kind === "played") {
        const frames = event.at.length;
        if (event.gen === entry.gen) entry.queued = Math.max(0, entry.queued - frames);
        for (let i = 0; i < frames; i++) {
          const frame = event.samples.subarray(i * FRAME_SAMPLES, (i + 1) * FRAME_SAMPLES);
          listeners.onPlayed?.(frame, (event.at[i] as number) + offset);
        }
      } else {
        const { lateness, ...counters } = event.counters;
        Object.assign(entry.stats, counters);
        for (const ms of lateness) entry.stats.lateness.record(ms);
      }
    } catch (error) {
      options.onError?.(error);
    }
  }

  return {
    get skipped() {
      return skipped;
    },
    async createSession(sessionOptions) {
      worker ??= start();
      const id = nextId++;
      const stats: RtpStats = {
        packetsSent: 0,
        packetsReceived: 0,
        framesSent: 0,
        audioFramesSent: 0,
        framesDelivered: 0,
        lost: 0,
        late: 0,
        duplicate: 0,
        lateness: createLatenessHistogram(),
      };
      const result = await new Promise<{ port: number } | { error: string }>((resolve) => {
        entries.set(id, {
          options: sessionOptions,
          stats,
          gen: 0,
          queued: 0,
          closed: false,
          opened: resolve,
        });
        holdWhileBusy();
        send({
          type: "open",
          id,
          host: sessionOptions.host,
          silenceFill: sessionOptions.silenceFill ?? true,
        });
      });
      if ("error" in result) throw new Error(`could not open an RTP socket: ${result.error}`);
      const entry = entries.get(id) as Entry;
      let partial: Int16Array | null = null;
      let pending: Int16Array[] = [];
      let applied: NegotiatedAudio | null = null;
      /** When the digits queued so far will have gone out (each takes 160 ms on the thread's ticks). */
      let digitsUntil = 0;

      // Frames queued in one turn of this event loop go to the thread as one buffer.
      const post = () => {
        if (entry.closed || pending.length === 0) return;
        const total = pending.reduce((n, f) => n + f.length, 0);
        const samples = new Int16Array(total);
        let at = 0;
        for (const frame of pending) {
          samples.set(frame, at);
          at += frame.length;
        }
        pending = [];
        send({ type: "audio", id, samples: samples.buffer }, [samples.buffer]);
      };

      return {
        port: result.port,
        stats,
        apply(audio: NegotiatedAudio) {
          applied = audio;
          send({ type: "apply", id, audio });
        },
        sendDigits(digits: string) {
          if (entry.closed || !applied || applied.telephoneEvent === null) return false;
          const keys = digits.toUpperCase().replace(/[^0-9*#A-D]/g, "");
          if (!keys) return true;
          digitsUntil = Math.max(digitsUntil, performance.now()) + keys.length * 160;
          send({ type: "digits", id, digits: keys });
          return true;
        },
        queuedDigits: () => Math.max(0, Math.ceil((digitsUntil - performance.now()) / 160)),
        sendAudio(frame) {
          if (entry.closed) return;
          let samples = partial ? concat(partial, frame) : frame;
          partial = null;
          const whole = samples.length - (samples.length % FRAME_SAMPLES);
          if (whole > 0) {
            if (pending.length === 0) queueMicrotask(post);
            pending.push(samples.slice(0, whole));
            entry.queued += whole / FRAME_SAMPLES;
          }
          samples = samples.subarray(whole);
          if (samples.length) partial = samples.slice();
        },
        clearAudio() {
          pending = [];
          partial = null;
          entry.queued = 0;
          entry.gen++;
          send({ type: "flush", id });
        },
        queuedFrames: () => entry.queued,
        close() {
          if (entry.closed) return;
          post();
          entry.closed = true;
          entry.queued = 0;
          send({ type: "close", id });
        },
      };
    },
  };
}

function concat(a: Int16Array, b: Int16Array): Int16Array {
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
