/**
 * SDP offer/answer (RFC 3264) for one audio stream, parsed and written with sdp-transform. We answer with
 * one codec: L16/16000 when offered (our own wideband test user agent), else G.711 μ-law or A-law in the
 * offer's order; plus telephone-event (RFC 4733) when offered. No common codec is 488 Not Acceptable Here,
 * and so is media we could not send to: a port outside 1-65535, a connection address that is not a unicast
 * IP address.
 */
import { isIP } from "node:net";
import sdpTransform from "sdp-transform";
import type { CodecName } from "./audio-codec.ts";

export type Direction = "sendrecv" | "sendonly" | "recvonly" | "inactive";

/** What the offer and our answer agreed on, seen from our side. */
export type NegotiatedAudio = {
  codec: CodecName;
  payloadType: number;
  clockRate: number;
  /** Payload type of telephone-events, or null when the offer had none. */
  telephoneEvent: number | null;
  telephoneEventRate: number;
  remoteAddress: string;
  remotePort: number;
  /** Our direction: what we may do (sendonly offer → we only receive). */
  direction: Direction;
  /** Index of the audio m-line in the offer. */
  mediaIndex: number;
  /** All m-lines of the offer (types and protocols), to answer each one. */
  offered: Array<{ type: string; protocol: string; payloads: string }>;
};

export type NegotiationResult =
  | { ok: true; audio: NegotiatedAudio }
  | { ok: false; status: 400 | 488; reason: string };

/** Offered payloads we can use, ours first: L16/16000 then G.711 in the peer's order. */
const STATIC: Record<number, { codec: CodecName; rate: number }> = {
  0: { codec: "PCMU", rate: 8000 },
  8: { codec: "PCMA", rate: 8000 },
};

function reverse(direction: Direction): Direction {
  return direction === "sendonly" ? "recvonly" : direction === "recvonly" ? "sendonly" : direction;
}

export function negotiateOffer(offerText: string): NegotiationResult {
  let offer: sdpTransform.SessionDescription;
  try {
    offer = sdpTransform.parse(offerText);
  } catch {
    return { ok: false, status: 400, reason: "Malformed SDP" };
  }
  if (!Array.isArray(offer.media) || offer.media.length === 0) {
    return { ok: false, status: 400, reason: "SDP has no media" };
  }
  const offered = offer.media.map((m) => ({
    type: m.type,
    protocol: m.protocol,
    payloads: String(m.payloads ?? ""),
  }));
  let lastReason = "No audio stream offered";
  for (const [index, media] of offer.media.entries()) {
    // Port 0 declines a stream (RFC 3264 §6).
    if (media.type !== "audio" || media.port === 0) continue;
    if (!Number.isInteger(media.port) || media.port < 1 || media.port > 65_535) {
      lastReason = "Media port must be from 1 to 65535";
      continue;
    }
    if (media.protocol !== "RTP/AVP" && media.protocol !== "RTP/AVPF") {
      lastReason = `Unsupported media protocol ${media.protocol}`;
      continue;
    }
    const payloads = String(media.payloads ?? "")
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    const rtpmap = new Map((media.rtp ?? []).map((r) => [r.payload, r]));
    const candidates: Array<{ codec: CodecName; pt: number; rate: number; rank: number }> = [];
    payloads.forEach((pt, order) => {
      const map = rtpmap.get(pt);
      const name = map?.codec.toUpperCase();
      if (
        map &&
        name === "L16" &&
        map.rate === 16_000 &&
        (map.encoding === undefined || Number(map.encoding) === 1)
      ) {
        candidates.push({ codec: "L16", pt, rate: 16_000, rank: -1 });
      } else if (map && (name === "PCMU" || name === "PCMA") && map.rate === 8000) {
        candidates.push({ codec: name, pt, rate: 8000, rank: order });
      } else if (!map && STATIC[pt]) {
        const known = STATIC[pt];
        candidates.push({ codec: known.codec, pt, rate: known.rate, rank: order });
      }
    });
    candidates.sort((a, b) => a.rank - b.rank);
    const chosen = candidates[0];
    if (!chosen) {
      lastReason = "No common codec (PCMU, PCMA, L16/16000)";
      continue;
    }
    const events = (media.rtp ?? []).filter(
      (r) => r.codec.toLowerCase() === "telephone-event" && payloads.includes(r.payload),
    );
    const event = events.find((r) => r.rate === chosen.rate) ?? events[0];
    const connection = media.connection ?? offer.connection;
    if (!connection?.ip) return { ok: false, status: 400, reason: "SDP has no connection address" };
    const address = connection.ip.split("/")[0] ?? "";
    if (!isIP(address)) return { ok: false, status: 488, reason: "Connection address must be an IP address" };
    if (!unicast(address))
      return { ok: false, status: 488, reason: "Connection address must be a unicast address" };
    const offeredDirection = (media.direction ?? offer.direction ?? "sendrecv") as Direction;
    // RFC 2543 hold: c=0.0.0.0 means "do not send to me".
    const held = address === "0.0.0.0" || address === "::";
    let direction = reverse(offeredDirection);
    if (held)
      direction = direction === "sendrecv" ? "recvonly" : direction === "sendonly" ? "inactive" : direction;
    return {
      ok: true,
      audio: {
        codec: chosen.codec,
        payloadType: chosen.pt,
        clockRate: chosen.rate,
        telephoneEvent: event?.payload ?? null,
        telephoneEventRate: event?.rate ?? chosen.rate,
        remoteAddress: address,
        remotePort: media.port,
        direction,
        mediaIndex: index,
        offered,
      },
    };
  }
  return { ok: false, status: 488, reason: lastReason };
}

/** Not multicast or broadcast (the hold address 0.0.0.0 / :: is allowed: it means "do not send"). */
function unicast(address: string): boolean {
  if (isIP(address) === 6) return !/^ff/i.test(address);
  const first = Number(address.split(".")[0]);
  return !(first >= 224 && first <= 239) && address !== "255.255.255.255";
}

export type LocalSession = { address: string; port: number; sessionId: number; version: number };

function ipVersion(address: string): 4 | 6 {
  return isIP(address) === 6 ? 6 : 4;
}

function header(local: LocalSession): Omit<sdpTransform.SessionDescription, "media"> {
  const ipVer = ipVersion(local.address);
  return {
    version: 0,
    origin: {
      username: "switchboard",
      sessionId: local.sessionId,
      sessionVersion: local.version,
      netType: "IN",
      ipVer,
      address: local.address,
    },
    name: "Switchboard",
    connection: { version: ipVer, ip: local.address },
    timing: { start: 0, stop: 0 },
  };
}

/** Our answer to an offer that `negotiateOffer` accepted (every other m-line refused with port 0). */
export function buildAnswer(audio: NegotiatedAudio, local: LocalSession): string {
  const media: sdpTransform.MediaDescription[] = audio.offered.map((m, index) => {
    if (index !== audio.mediaIndex) {
      return {
        type: m.type,
        port: 0,
        protocol: m.protocol,
        payloads: m.payloads.split(" ")[0] ?? "0",
        rtp: [],
        fmtp: [],
      };
    }
    const rtp: Array<{ payload: number; codec: string; rate: number }> = [
      { payload: audio.payloadType, codec: audio.codec, rate: audio.clockRate },
    ];
    const fmtp: Array<{ payload: number; config: string }> = [];
    const payloads = [audio.payloadType];
    if (audio.telephoneEvent !== null) {
      payloads.push(audio.telephoneEvent);
      rtp.push({ payload: audio.telephoneEvent, codec: "telephone-event", rate: audio.telephoneEventRate });
      fmtp.push({ payload: audio.telephoneEvent, config: "0-15" });
    }
    return {
      type: "audio",
      port: local.port,
      protocol: m.protocol === "RTP/AVPF" ? "RTP/AVPF" : "RTP/AVP",
      payloads: payloads.join(" "),
      rtp,
      fmtp,
      ptime: 20,
      direction: audio.direction,
    };
  });
  return sdpTransform.write({ ...header(local), media });
}

/** Our own offer (a delayed-offer INVITE, a refreshing re-INVITE): L16/16000, PCMU, PCMA, telephone-event. */
export function buildOffer(local: LocalSession, direction: Direction = "sendrecv"): string {
  return sdpTransform.write({
    ...header(local),
    media: [
      {
        type: "audio",
        port: local.port,
        protocol: "RTP/AVP",
        payloads: "96 0 8 101",
        rtp: [
          { payload: 96, codec: "L16", rate: 16_000 },
          { payload: 0, codec: "PCMU", rate: 8000 },
          { payload: 8, codec: "PCMA", rate: 8000 },
          { payload: 101, codec: "telephone-event", rate: 8000 },
        ],
        fmtp: [{ payload: 101, config: "0-15" }],
        ptime: 20,
        direction,
      },
    ],
  });
}

/**
 * Reads the answer to our own offer: the first codec the answer lists that we offered. Returns the result
 * shaped like a negotiated offer (the direction reversed to ours).
 */
export function readAnswer(answerText: string): NegotiationResult {
  const result = negotiateOffer(answerText);
  if (!result.ok) return result;
  const ours = new Set([0, 8, 96]);
  if (!ours.has(result.audio.payloadType))
    return { ok: false, status: 488, reason: "Answer picked no offered codec" };
  return result;
}
