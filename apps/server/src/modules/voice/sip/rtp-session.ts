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
import { FRAME_SAMPLES } from "../call-leg.ts";
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
  close(): void;
};

const MAX_QUEUED_FRAMES = 15_000; // five minutes of audio

export async function createRtpSession(options: {
  host: string;
  pacer: Pacer;
  onAudio: (frame: Int16Array) => void;
  onDtmf: (digit: string) => void;
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
    const packet: RtpPacket | null = parseRtp(data);
    if (!packet) return; // RTCP shares no port with us (rtcp-mux is not offered); anything else is noise
    const ours = packet.payloadType === audio.payloadType || packet.payloadType === audio.telephoneEvent;
    if (!ours) return;
    stats.packetsReceived++;
    // Symmetric RTP: send where the caller's media really comes from (NAT), once we have heard it.
    if (!latched) {
      latched = true;
      remote = { address: rinfo.address, port: rinfo.port };
    }
    lastPacketAt = performance.now();
    if (packet.payloadType === audio.telephoneEvent) dtmf(packet);
    else jitter.push(packet);
  });

  function canSend(): boolean {
    return audio !== null && (audio.direction === "sendrecv" || audio.direction === "sendonly");
  }

  function send(payload: Buffer, marker: boolean) {
    if (!remote || !audio || remote.port === 0) return;
    const packet = buildRtp({ payloadType: audio.payloadType, marker, sequence, timestamp, ssrc, payload });
    sequence = (sequence + 1) & 0xffff;
    socket.send(packet, remote.port, remote.address);
    stats.packetsSent++;
  }

  const onTick: PacerMember = (ideal) => {
    if (closed) return;
    if (audio && codec && canSend()) {
      const frame = queue.shift();
      if (frame) {
        send(codec.encode(frame), idle);
        idle = false;
        flushedEncoder = false;
        stats.audioFramesSent++;
        stats.framesSent++;
        stats.lateness.record(performance.now() - ideal);
      } else if (silenceFill) {
        // The first silent frame goes through the encoder so its resampler's memory drains cleanly.
        const payload = flushedEncoder
          ? codec.silence(FRAME_SAMPLES)
          : codec.encode(new Int16Array(FRAME_SAMPLES));
        flushedEncoder = true;
        send(payload, stats.packetsSent === 0);
        idle = true;
        stats.framesSent++;
        stats.lateness.record(performance.now() - ideal);
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

function concat(a: Int16Array, b: Int16Array): Int16Array {
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
