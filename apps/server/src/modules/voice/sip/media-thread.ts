/**
 * The media thread (a worker thread; media-thread-client.ts starts it): it owns the RTP sockets of SIP calls
 * and paces their audio out every 20 ms on an event loop of its own, so API work, SIP handling and the call
 * pipeline on the main thread cannot delay a frame. Each call is an RtpSession (rtp-session.ts: jitter
 * buffer, codec, RFC 4733 digits, latching) driven by this thread's pacer; the main thread fills its queue
 * ahead of time. What the calls hear and play is posted back in one batch a tick.
 */
import { parentPort } from "node:worker_threads";
import type { FromMediaThread, MediaCounters, MediaEvent, ToMediaThread } from "./media-thread-messages.ts";
import { createPacer } from "./pacer.ts";
import { createRtpSession, type RtpSession } from "./rtp-session.ts";

const port = parentPort;
if (!port) throw new Error("media-thread.ts runs as a worker thread");

type Member = {
  session: RtpSession | null;
  /** Messages that came while the socket was being opened. */
  early: ToMediaThread[];
  flushes: number;
  played: { frames: Int16Array[]; at: number[] };
  /** Send lateness values recorded since the last report. */
  lateness: number[];
};

const members = new Map<number, Member>();
let events: MediaEvent[] = [];
let ticks = 0;
const pacer = createPacer();
const post = (message: FromMediaThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

// Runs first on every tick: what the previous tick played and what arrived since goes out in one message.
const flushTick = () => {
  ticks++;
  for (const [id, member] of members) {
    if (member.played.frames.length) {
      events.push({
        kind: "played",
        id,
        gen: member.flushes,
        samples: concat(member.played.frames),
        at: member.played.at,
      });
      member.played = { frames: [], at: [] };
    }
    if (ticks % 25 === 0 && member.session) events.push(countersOf(id, member.session));
  }
  postBatch();
};

function postBatch() {
  if (events.length === 0) return;
  const batch = events;
  events = [];
  const transfer: ArrayBuffer[] = [];
  for (const event of batch)
    if (event.kind === "audio" || event.kind === "played") transfer.push(event.samples.buffer as ArrayBuffer);
  post({ type: "batch", events: batch, skipped: pacer.skipped }, transfer);
}

function countersOf(id: number, session: RtpSession): MediaEvent {
  const { stats } = session;
  const counters: MediaCounters = {
    packetsSent: stats.packetsSent,
    packetsReceived: stats.packetsReceived,
    framesSent: stats.framesSent,
    audioFramesSent: stats.audioFramesSent,
    framesDelivered: stats.framesDelivered,
    lost: stats.lost,
    late: stats.late,
    duplicate: stats.duplicate,
    lateness: (members.get(id) as Member).lateness.splice(0),
  };
  return { kind: "counters", id, counters };
}

async function open(id: number, host: string, silenceFill: boolean) {
  const member: Member = {
    session: null,
    early: [],
    flushes: 0,
    played: { frames: [], at: [] },
    lateness: [],
  };
  members.set(id, member);
  if (members.size === 1) pacer.add(flushTick);
  try {
    member.session = await createRtpSession({
      host,
      pacer,
      silenceFill,
      onAudio: (samples) => events.push({ kind: "audio", id, samples }),
      onDtmf: (digit) => events.push({ kind: "dtmf", id, digit }),
      onPlayed: (frame, at) => {
        member.played.frames.push(frame);
        member.played.at.push(at);
      },
      onLateness: (ms) => member.lateness.push(ms),
    });
  } catch (error) {
    remove(id);
    post({ type: "open-failed", id, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  post({ type: "opened", id, port: member.session.port });
  for (const message of member.early.splice(0)) handle(message);
}

function remove(id: number) {
  members.delete(id);
  if (members.size === 0) pacer.remove(flushTick);
}

function handle(message: ToMediaThread) {
  if (message.type === "open") {
    void open(message.id, message.host, message.silenceFill);
    return;
  }
  const member = members.get(message.id);
  if (!member) return;
  const session = member.session;
  if (!session) {
    member.early.push(message);
    return;
  }
  if (message.type === "audio") session.sendAudio(new Int16Array(message.samples));
  else if (message.type === "flush") {
    session.clearAudio();
    member.flushes++;
  } else if (message.type === "apply") session.apply(message.audio);
  else if (message.type === "digits") session.sendDigits(message.digits);
  else if (message.type === "close") {
    session.close();
    flushTick();
    events.push(countersOf(message.id, session));
    postBatch();
    remove(message.id);
    post({ type: "closed", id: message.id });
  }
}

port.on("message", (message: ToMediaThread) => {
  try {
    handle(message);
  } catch (error) {
    // One call's bad message must not stop every call's media.
    console.warn("media thread: a message could not be handled", error);
  }
});
post({ type: "ready", timeOrigin: performance.timeOrigin });

function concat(frames: Int16Array[]): Int16Array {
  if (frames.length === 1) return (frames[0] as Int16Array).slice();
  const out = new Int16Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const frame of frames) {
    out.set(frame, at);
    at += frame.length;
  }
  return out;
}
