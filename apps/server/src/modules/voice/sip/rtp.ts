/** RTP (RFC 3550) packets, a small reordering jitter buffer, and RFC 4733 telephone-event decoding. */

export type RtpPacket = {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
};

/** Parses an RTP packet (version 2; CSRCs, header extension and padding skipped); null if it is not one. */
export function parseRtp(data: Buffer): RtpPacket | null {
  if (data.length < 12) return null;
  const b0 = data[0] as number;
  if (b0 >> 6 !== 2) return null;
  const padding = (b0 & 0x20) !== 0;
  const extension = (b0 & 0x10) !== 0;
  const csrcCount = b0 & 0x0f;
  const b1 = data[1] as number;
  let offset = 12 + csrcCount * 4;
  if (extension) {
    if (data.length < offset + 4) return null;
    offset += 4 + data.readUInt16BE(offset + 2) * 4;
  }
  let end = data.length;
  if (padding) end -= data[data.length - 1] as number;
  if (offset > end) return null;
  return {
    payloadType: b1 & 0x7f,
    marker: (b1 & 0x80) !== 0,
    sequence: data.readUInt16BE(2),
    timestamp: data.readUInt32BE(4),
    ssrc: data.readUInt32BE(8),
    payload: data.subarray(offset, end),
  };
}

export function buildRtp(packet: RtpPacket): Buffer {
  const out = Buffer.allocUnsafe(12 + packet.payload.length);
  out[0] = 0x80;
  out[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  out.writeUInt16BE(packet.sequence & 0xffff, 2);
  out.writeUInt32BE(packet.timestamp >>> 0, 4);
  out.writeUInt32BE(packet.ssrc >>> 0, 8);
  packet.payload.copy(out, 12);
  return out;
}

/** Signed distance a − b between 16-bit sequence numbers (wrap-around aware). */
export function seqDiff(a: number, b: number): number {
  const d = (a - b) & 0xffff;
  return d >= 0x8000 ? d - 0x10000 : d;
}

export type JitterStats = {
  received: number;
  late: number;
  duplicate: number;
  lost: number;
  reordered: number;
};

/**
 * Reorders packets by sequence number and releases them in order. A missing packet is waited for while
 * fewer than `depth` later packets are held; then it is counted lost and skipped (`onLoss` tells how many).
 * Late packets (before what was already released) and duplicates are dropped. Holding at most `depth`
 * packets keeps the added delay at depth × ptime only when packets are actually missing.
 */
export function createJitterBuffer(options: {
  depth?: number;
  onPacket: (packet: RtpPacket) => void;
  onLoss?: (count: number) => void;
}) {
  const depth = options.depth ?? 3;
  const held = new Map<number, RtpPacket>();
  let next: number | null = null;
  const stats: JitterStats = { received: 0, late: 0, duplicate: 0, lost: 0, reordered: 0 };

  function drain() {
    while (next !== null) {
      const packet = held.get(next);
      if (packet) {
        held.delete(next);
        next = (next + 1) & 0xffff;
        options.onPacket(packet);
        continue;
      }
      if (held.size < depth) return;
      // Give up on the missing one(s): jump to the oldest held packet.
      let oldest: number | null = null;
      for (const seq of held.keys()) if (oldest === null || seqDiff(seq, oldest) < 0) oldest = seq;
      if (oldest === null) return;
      const missing = seqDiff(oldest, next);
      stats.lost += missing;
      options.onLoss?.(missing);
      next = oldest;
    }
  }

  return {
    stats,
    /** Packets held back waiting for a missing one. */
    pending: () => held.size,
    push(packet: RtpPacket) {
      stats.received++;
      if (next === null) next = packet.sequence;
      const ahead = seqDiff(packet.sequence, next);
      if (ahead < 0) {
        // A big jump backwards is a restarted stream (new SSRC or sender reset), not a late packet.
        if (ahead < -100) {
          held.clear();
          next = packet.sequence;
        } else {
          stats.late++;
          return;
        }
      } else if (ahead > 100) {
        // A big jump forwards: resynchronise rather than hold everything as "missing".
        held.clear();
        next = packet.sequence;
      }
      if (held.has(packet.sequence)) {
        stats.duplicate++;
        return;
      }
      if (seqDiff(packet.sequence, next) > 0 && held.size === 0) stats.reordered++;
      held.set(packet.sequence, packet);
      drain();
    },
    /** Releases whatever is held, in order (the end of the stream). */
    flush() {
      while (held.size) {
        let oldest: number | null = null;
        for (const seq of held.keys()) if (oldest === null || seqDiff(seq, oldest) < 0) oldest = seq;
        if (oldest === null) break;
        next = oldest;
        drain();
        if (held.has(oldest)) break;
      }
    },
  };
}

const EVENT_DIGITS = "0123456789*#ABCD";

/**
 * RFC 4733 telephone-events to digits. One event is one timestamp: its first packet yields the digit;
 * the updates and the three end-of-event retransmissions share that timestamp and are ignored.
 */
export function createDtmfDecoder(onDigit: (digit: string) => void) {
  let lastKey: string | null = null;
  return (packet: RtpPacket) => {
    if (packet.payload.length < 4) return;
    const event = packet.payload[0] as number;
    const digit = EVENT_DIGITS[event];
    if (digit === undefined) return; // tones and other events: not digits
    const key = `${packet.ssrc}:${packet.timestamp}:${event}`;
    if (key === lastKey) return;
    lastKey = key;
    onDigit(digit);
  };
}

/** Digits from a SIP INFO body: `application/dtmf-relay` (`Signal=5`) or `application/dtmf` (`5`). */
export function dtmfFromInfo(contentType: string, body: string): string | null {
  const type = contentType.split(";")[0]?.trim().toLowerCase();
  let signal: string | undefined;
  if (type === "application/dtmf-relay") {
    signal = /^\s*signal\s*=\s*(\S+)\s*$/im.exec(body)?.[1];
  } else if (type === "application/dtmf") {
    signal = body.trim();
  } else return null;
  if (!signal) return null;
  const upper = signal.toUpperCase();
  if (/^[0-9*#A-D]$/.test(upper)) return upper;
  const code = Number(signal);
  if (Number.isInteger(code) && code >= 0 && code < 16) return EVENT_DIGITS[code] ?? null;
  return null;
}
