/**
 * The media of one SIP call: its own UDP socket (a port the OS picks), RTP in through the jitter buffer and
 * the codec to 20 ms PCM16 16 kHz frames, telephone-events to digits, and frames out paced by the shared
 * 20 ms clock.
 *
 * When nothing is queued we keep sending silence (encoded G.711/L16 silence, not comfort noise, which needs
 * RFC 3389 negotiated): carriers and SBCs run RTP inactivity timers that hang up a "dead" call after
 * 30–60 s, NAT bindings and symmetric-RTP latching need packets flowing, and a continuous stream keeps the
 * far end's jitter buffer steady. It costs 50 small packets a second. Each talk spurt (the first queued
 * frame after silence) carries the marker bit, so an adaptive far-end jitter buffer may re-align there.
 * On hold (the peer's offer was sendonly/inactive) we send nothing, and queued audio waits.
 */
import { randomInt } from "node:crypto";
import dgram from "node:dgram";
import { isIP } from "node:net";
import { FRAME_SAMPLES } from "../../../audio/audio-format.ts";
import { type CodecSession, createCodecSession } from "./audio-codec.ts";
import { createLatenessHistogram, type LatenessHistogram, type Pacer, type PacerMember } from "./pacer.ts";
import { buildRtp, createDtmfDecoder, createJitterBuffer, parseRtp, type RtpPacket } from "./rtp.ts";
import type { NegotiatedAudio } from "./sdp.ts";

export type RtpStats = {
  packetsSent: number;
  packetsReceived: number;
  framesSent: number;
  /** Frames of queued audio sent (not silence). */
  audioFramesSent: number;
  framesDelivered: number;
  lost: number;
  late: number;
  duplicate: number;
  /** Send lateness (actual − ideal) per packet. */
  lateness: LatenessHistogram;
};

export type RtpSession = {
  readonly port: number;
  readonly stats: RtpStats;
  /** Starts (or changes) the media after an offer/answer. */
  apply(audio: NegotiatedAudio): void;
  sendAudio(frame: Int16Array): void;
  clearAudio(): void;
  queuedFrames(): number;
  /**
   * Queues keypad digits to the far end as RFC 4733 telephone-events (100 ms each, 60 ms apart), sent in
   * place of audio on the 20 ms ticks; queued audio waits behind them. False when the far end's SDP offered
   * no telephone-event payload type (nothing is sent then).
   */
  sendDigits(digits: string): boolean;
  /** Digits queued and not yet sent. */
  queuedDigits(): number;
  close(): void;
};

/** Ticks (20 ms) of one outgoing keypad digit: 5 with the tone, then 3 quiet before the next. */
const DIGIT_TONE_TICKS = 5;
const DIGIT_GAP_TICKS = 3;
const EVENT_CODES = "0123456789*#ABCD";

const MAX_QUEUED_FRAMES = 15_000; // five minutes of audio

export async function createRtpSession(options: {
  host: string;
  pacer: Pacer;
  onAudio: (frame: Int16Array) => void;
  onDtmf: (digit: string) => void;
  /** Each queued frame as it is sent to the caller, with its tick's due time (the recording's agent side). */
  onPlayed?: (frame: Int16Array, at: number) => void;
  /** Each packet's send lateness as it is recorded (the media thread reports them to the main thread). */
  onLateness?: (ms: number) => void;
  silenceFill?: boolean;
}): Promise<RtpSession> {
  const socket = dgram.createSocket(isIP(options.host) === 6 ? "udp6" : "udp4");
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, options.host, () => {
      socket.off("error", reject);
      resolve();
    });
  });
  socket.on("error", () => {}); // ICMP unreachable and the like: media is best effort
  const port = socket.address().port;
  const silenceFill = options.silenceFill ?? true;

  let audio: NegotiatedAudio | null = null;
  let codec: CodecSession | null = null;
  let remote: { address: string; port: number } | null = null;
  let latched = false;
  const ssrc = randomInt(1, 2 ** 32 - 1);
  let sequence = randomInt(0, 0x10000);
  let timestamp = randomInt(0, 2 ** 32 - 1);
  let samplesPerFrame = 160;
  let idle = true; // the last packet sent was silence (or none yet): the next audio starts a talk spurt
  let flushedEncoder = true;
  const queue: Int16Array[] = [];
  /** Keypad digits to send (RFC 4733), and the one being sent: its event code, start timestamp, tick. */
  const digits: number[] = [];
  let digit: { code: number; timestamp: number; tick: number } | null = null;
  let partialOut: Int16Array | null = null;
  let inbound = new Int16Array(0);
  let lastPacketAt = 0;
  let closed = false;
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

  function deliver(samples: Int16Array) {
    let buffer = inbound.length ? concat(inbound, samples) : samples;
    while (buffer.length >= FRAME_SAMPLES) {
      const frame = buffer.slice(0, FRAME_SAMPLES);
      buffer = buffer.subarray(FRAME_SAMPLES);
      stats.framesDelivered++;
      options.onAudio(frame);
    }
    inbound = buffer.slice();
  }

  const jitter = createJitterBuffer({
    depth: 3,
    onPacket: (packet) => {
      if (!codec) return;
      deliver(codec.decode(packet.payload));
    },
    onLoss: (count) => {
      // Conceal short gaps with silence so the caller's timeline (and a recording) keeps its length.
      if (count <= 5) deliver(new Int16Array(count * FRAME_SAMPLES));
    },
  });
  const dtmf = createDtmfDecoder(options.onDtmf);

  socket.on("message", (data, rinfo) => {
    if (closed || !audio) return;
    try {
      receive(data, rinfo);
    } catch {
      // A packet we cannot make sense of is dropped; it never reaches past this socket.
    }
  });

  function receive(data: Buffer, rinfo: dgram.RemoteInfo) {
    if (!audio) return;
    const packet: RtpPacket | null = parseRtp(data);
    if (!packet) return; // RTCP shares no port with us (rtcp-mux is not offered); anything else is noise
    const ours = packet.payloadType === audio.payloadType || packet.payloadType === audio.telephoneEvent;
    if (!ours) return;
    stats.packetsReceived++;
    if (!latched && latchable(rinfo, audio)) {
      latched = true;
      remote = { address: audio.remoteAddress, port: rinfo.port };
    }
    lastPacketAt = performance.now();
    if (packet.payloadType === audio.telephoneEvent) dtmf(packet);
    else jitter.push(packet);
  }

  function canSend(): boolean {
    return audio !== null && (audio.direction === "sendrecv" || audio.direction === "sendonly");
  }

  /** Sends one packet; false when there is nowhere valid to send it. Never throws (it runs in the pacer). */
  function send(
    payload: Buffer,
    marker: boolean,
    event?: { payloadType: number; timestamp: number },
  ): boolean {
    if (!remote || !audio || !validPort(remote.port) || isIP(remote.address) === 0) return false;
    const packet = buildRtp({
      payloadType: event?.payloadType ?? audio.payloadType,
      marker,
      sequence,
      timestamp: event?.timestamp ?? timestamp,
      ssrc,
      payload,
    });
    sequence = (sequence + 1) & 0xffff;
    try {
      socket.send(packet, remote.port, remote.address);
    } catch {
      return false;
    }
    stats.packetsSent++;
    return true;
  }

  function recordLateness(ms: number) {
    stats.lateness.record(ms);
    options.onLateness?.(ms);
  }

  /** One tick of the digit being sent (true when the tick was its): the tone's packets, then quiet. */
  function digitTick(): boolean {
    if (!audio || audio.telephoneEvent === null) {
      digits.length = 0;
      digit = null;
      return false;
    }
    if (!digit) {
      const code = digits.shift();
      if (code === undefined) return false;
      digit = { code, timestamp, tick: 0 };
    }
    const current = digit;
    const perTick = Math.round((audio.telephoneEventRate * 20) / 1000);
    if (current.tick < DIGIT_TONE_TICKS) {
      const last = current.tick === DIGIT_TONE_TICKS - 1;
      const payload = Buffer.alloc(4);
      payload[0] = current.code;
      payload[1] = (last ? 0x80 : 0) | 10; // end bit; volume -10 dBm0
      payload.writeUInt16BE(Math.min(0xffff, perTick * (current.tick + 1)), 2);
      const event = { payloadType: audio.telephoneEvent, timestamp: current.timestamp };
      // The end of the event goes three times (RFC 4733 §2.5.1.4).
      for (let copy = 0; copy < (last ? 3 : 1); copy++) send(payload, current.tick === 0, event);
    } else if (silenceFill && codec) send(codec.silence(FRAME_SAMPLES), false);
    current.tick++;
    if (current.tick >= DIGIT_TONE_TICKS + DIGIT_GAP_TICKS) digit = null;
    idle = true;
    flushedEncoder = true;
    return true;
  }

  const onTick: PacerMember = (ideal) => {
    if (closed) return;
    if (audio && codec && canSend() && (digit || digits.length > 0) && digitTick()) {
      stats.framesSent++;
      recordLateness(performance.now() - ideal);
    } else if (audio && codec && canSend()) {
      const frame = queue.shift();
      if (frame) {
        if (send(codec.encode(frame), idle)) options.onPlayed?.(frame, ideal);
        idle = false;
        flushedEncoder = false;
        stats.audioFramesSent++;
        stats.framesSent++;
        recordLateness(performance.now() - ideal);
      } else if (silenceFill) {
        // The first silent frame goes through the encoder so its resampler's memory drains cleanly.
        const payload = flushedEncoder
          ? codec.silence(FRAME_SAMPLES)
          : codec.encode(new Int16Array(FRAME_SAMPLES));
        flushedEncoder = true;
        send(payload, stats.packetsSent === 0);
        idle = true;
        stats.framesSent++;
        recordLateness(performance.now() - ideal);
      } else idle = true;
    } else idle = true;
    // The media clock runs whether or not a packet went out (RFC 3550 §5.1).
    timestamp = (timestamp + samplesPerFrame) >>> 0;
    // The stream paused with packets held behind a gap: release them rather than wait for more.
    if (jitter.pending() > 0 && performance.now() - lastPacketAt > 60) jitter.flush();
    stats.lost = jitter.stats.lost;
    stats.late = jitter.stats.late;
    stats.duplicate = jitter.stats.duplicate;
  };

  return {
    port,
    stats,
    apply(next) {
      const codecChanged = !audio || audio.codec !== next.codec;
      if (codecChanged) {
        codec = createCodecSession(next.codec);
        samplesPerFrame = (next.clockRate * 20) / 1000;
      }
      const moved =
        !audio || audio.remoteAddress !== next.remoteAddress || audio.remotePort !== next.remotePort;
      // A new address in the SDP (not a hold's 0.0.0.0) is where to send until its media is heard again.
      if (!remote || (moved && next.remoteAddress !== "0.0.0.0" && next.remoteAddress !== "::")) {
        remote = { address: next.remoteAddress, port: next.remotePort };
        latched = false;
      }
      audio = next;
      options.pacer.add(onTick);
    },
    sendAudio(frame) {
      if (closed) return;
      let samples = partialOut ? concat(partialOut, frame) : frame;
      partialOut = null;
      while (samples.length >= FRAME_SAMPLES) {
        if (queue.length < MAX_QUEUED_FRAMES) queue.push(samples.slice(0, FRAME_SAMPLES));
        samples = samples.subarray(FRAME_SAMPLES);
      }
      if (samples.length) partialOut = samples.slice();
    },
    clearAudio() {
      queue.length = 0;
      partialOut = null;
    },
    queuedFrames: () => queue.length,
    sendDigits(keys) {
      if (closed || !audio || audio.telephoneEvent === null) return false;
      for (const key of keys.toUpperCase()) {
        const code = EVENT_CODES.indexOf(key);
        if (code >= 0) digits.push(code);
      }
      return true;
    },
    queuedDigits: () => digits.length + (digit ? 1 : 0),
    close() {
      if (closed) return;
      closed = true;
      stats.lost = jitter.stats.lost;
      stats.late = jitter.stats.late;
      stats.duplicate = jitter.stats.duplicate;
      options.pacer.remove(onTick);
      queue.length = 0;
      socket.close();
    },
  };
}

const validPort = (port: number) => Number.isInteger(port) && port > 0 && port < 65_536;

/**
 * Symmetric RTP: whether to send to where a packet came from (the caller's real port behind a NAT) rather
 * than the port its SDP named. Only from the host the SDP named and from a port one can send to: a packet
 * from source port 0 (what sipp's pcap playback sends) or from another host must not take the call's audio
 * away from the caller.
 */
export function latchable(source: { address: string; port: number }, audio: NegotiatedAudio): boolean {
  const plain = (address: string) => address.replace(/^::ffff:/i, "").toLowerCase();
  return validPort(source.port) && plain(source.address) === plain(audio.remoteAddress);
}

function concat(a: Int16Array, b: Int16Array): Int16Array {
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
