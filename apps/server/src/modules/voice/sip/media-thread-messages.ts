/** What the main thread and the media thread (media-thread.ts) say to each other, by call media id. */
import type { NegotiatedAudio } from "./sdp.ts";

export type ToMediaThread =
  | { type: "open"; id: number; host: string; silenceFill: boolean }
  | { type: "apply"; id: number; audio: NegotiatedAudio }
  /** Whole 20 ms frames of PCM16 16 kHz, back to back (the buffer is transferred). */
  | { type: "audio"; id: number; samples: ArrayBuffer }
  /** Keypad digits to the far end as RFC 4733 telephone-events. */
  | { type: "digits"; id: number; digits: string }
  /** Barge-in: drop every queued frame now. */
  | { type: "flush"; id: number }
  | { type: "close"; id: number };

/** Counters of one call's media, with the send lateness values recorded since the last report. */
export type MediaCounters = {
  packetsSent: number;
  packetsReceived: number;
  framesSent: number;
  audioFramesSent: number;
  framesDelivered: number;
  lost: number;
  late: number;
  duplicate: number;
  lateness: number[];
};

export type MediaEvent =
  | { kind: "audio"; id: number; samples: Int16Array }
  | { kind: "dtmf"; id: number; digit: string }
  /**
   * Queued frames as they went out, each with its tick's due time on the media thread's clock; `gen` counts
   * the flushes before them (frames played before a flush reached the thread were heard all the same).
   */
  | { kind: "played"; id: number; gen: number; samples: Int16Array; at: number[] }
  | { kind: "counters"; id: number; counters: MediaCounters };

export type FromMediaThread =
  | { type: "ready"; timeOrigin: number }
  | { type: "opened"; id: number; port: number }
  | { type: "open-failed"; id: number; message: string }
  /** Everything since the previous tick, in order; `skipped` is the thread's pacer's running count. */
  | { type: "batch"; events: MediaEvent[]; skipped: number }
  | { type: "closed"; id: number };
