// SDP negotiation, the codecs and resampler, RTP, the jitter buffer and DTMF decoding.
import sdpTransform from "sdp-transform";
import { describe, expect, it } from "vitest";
import { createCodecSession, createDownsampler, createUpsampler } from "./audio-codec.ts";
import { createPacer } from "./pacer.ts";
import {
  buildRtp,
  createDtmfDecoder,
  createJitterBuffer,
  dtmfFromInfo,
  parseRtp,
  type RtpPacket,
  seqDiff,
} from "./rtp.ts";
import { buildAnswer, buildOffer, negotiateOffer } from "./sdp.ts";

const offer = (m: string, attributes: string[], c = "127.0.0.1") =>
  ["v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", `c=IN IP4 ${c}`, "t=0 0", m, ...attributes, ""].join("\r\n");

const local = { address: "127.0.0.1", port: 40000, sessionId: 7, version: 1 };

describe("SDP offer/answer", () => {
  it("answers μ-law with telephone-event", () => {
    const result = negotiateOffer(
      offer("m=audio 6000 RTP/AVP 0 8 101", ["a=rtpmap:101 telephone-event/8000", "a=fmtp:101 0-16"]),
    );
    expect(result).toMatchObject({
      ok: true,
      audio: { codec: "PCMU", payloadType: 0, telephoneEvent: 101, remotePort: 6000, direction: "sendrecv" },
    });
    if (!result.ok) return;
    const answer = sdpTransform.parse(buildAnswer(result.audio, local));
    expect(answer.media[0]).toMatchObject({
      port: 40000,
      payloads: "0 101",
      direction: "sendrecv",
      ptime: 20,
    });
    expect(answer.media[0]?.rtp.map((r) => `${r.payload} ${r.codec}/${r.rate}`)).toEqual([
      "0 PCMU/8000",
      "101 telephone-event/8000",
    ]);
  });

  it("answers A-law when it comes first, with static payload types and no rtpmap", () => {
    const result = negotiateOffer(offer("m=audio 6000 RTP/AVP 8 0", []));
    expect(result).toMatchObject({
      ok: true,
      audio: { codec: "PCMA", payloadType: 8, telephoneEvent: null },
    });
  });

  it("prefers L16/16000 (wideband) on its dynamic payload type", () => {
    const result = negotiateOffer(
      offer("m=audio 6000 RTP/AVP 0 96 101", ["a=rtpmap:96 L16/16000", "a=rtpmap:101 telephone-event/16000"]),
    );
    expect(result).toMatchObject({
      ok: true,
      audio: { codec: "L16", payloadType: 96, clockRate: 16000, telephoneEventRate: 16000 },
    });
  });

  it("refuses an offer with no common codec (488), or SRTP only, and SDP without media (400)", () => {
    expect(negotiateOffer(offer("m=audio 6000 RTP/AVP 18 9", ["a=rtpmap:18 G729/8000"]))).toMatchObject({
      ok: false,
      status: 488,
    });
    expect(negotiateOffer(offer("m=audio 6000 RTP/SAVP 0", []))).toMatchObject({ ok: false, status: 488 });
    expect(negotiateOffer("v=0\r\ns=-\r\n")).toMatchObject({ ok: false, status: 400 });
  });

  it("answers hold: sendonly → recvonly, inactive → inactive, c=0.0.0.0 → we do not send", () => {
    const direction = (attrs: string[], c?: string) => {
      const result = negotiateOffer(offer("m=audio 6000 RTP/AVP 0", attrs, c));
      return result.ok ? result.audio.direction : null;
    };
    expect(direction(["a=sendonly"])).toBe("recvonly");
    expect(direction(["a=inactive"])).toBe("inactive");
    expect(direction(["a=recvonly"])).toBe("sendonly");
    expect(direction([], "0.0.0.0")).toBe("recvonly");
  });

  it("keeps a refused video stream in the answer with port 0", () => {
    const text = [
      "v=0",
      "o=- 1 1 IN IP4 127.0.0.1",
      "s=-",
      "c=IN IP4 127.0.0.1",
      "t=0 0",
      "m=video 7000 RTP/AVP 31",
      "m=audio 6000 RTP/AVP 0",
      "",
    ].join("\r\n");
    const result = negotiateOffer(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const answer = sdpTransform.parse(buildAnswer(result.audio, local));
    expect(answer.media.map((m) => [m.type, m.port])).toEqual([
      ["video", 0],
      ["audio", 40000],
    ]);
  });

  it("makes an offer that our own negotiation accepts as L16", () => {
    expect(negotiateOffer(buildOffer(local))).toMatchObject({ ok: true, audio: { codec: "L16" } });
  });
});

function tone(freq: number, rate: number, samples: number, amplitude = 10_000): Int16Array {
  return Int16Array.from({ length: samples }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * freq * i) / rate)),
  );
}

function rms(samples: Int16Array, from = 0): number {
  let sum = 0;
  for (let i = from; i < samples.length; i++) sum += (samples[i] as number) ** 2;
  return Math.sqrt(sum / (samples.length - from));
}

describe("codecs and resampling", () => {
  it("resamples 8 → 16 → 8 kHz keeping a 1 kHz tone and its level, in 20 ms pieces", () => {
    const up = createUpsampler();
    const down = createDownsampler();
    const input = tone(1000, 8000, 1600);
    const pieces: Int16Array[] = [];
    for (let i = 0; i < input.length; i += 160) pieces.push(down(up(input.subarray(i, i + 160))));
    const output = Int16Array.from(pieces.flatMap((p) => [...p]));
    expect(output.length).toBe(1600);
    expect(rms(output, 200) / rms(input, 200)).toBeGreaterThan(0.95);
    expect(rms(output, 200) / rms(input, 200)).toBeLessThan(1.05);
  });

  it("filters out what would alias: a 6 kHz tone at 16 kHz is gone at 8 kHz", () => {
    const down = createDownsampler();
    const out = down(tone(6000, 16_000, 3200));
    expect(rms(out, 100)).toBeLessThan(50);
  });

  it.each(["PCMU", "PCMA"] as const)(
    "%s: 20 ms frames of 320 samples become 160-byte payloads and back",
    (name) => {
      const codec = createCodecSession(name);
      const frame = tone(440, 16_000, 320);
      const payload = codec.encode(frame);
      expect(payload.length).toBe(160);
      expect(codec.decode(payload).length).toBe(320);
      expect(codec.silence(320).length).toBe(160);
    },
  );

  it("L16 is big-endian PCM at 16 kHz, bit-exact", () => {
    const codec = createCodecSession("L16");
    const frame = tone(440, 16_000, 320);
    const payload = codec.encode(frame);
    expect(payload.length).toBe(640);
    expect(payload.readInt16BE(2)).toBe(frame[1]);
    expect([...codec.decode(payload)]).toEqual([...frame]);
  });
});

const packet = (sequence: number, extra: Partial<RtpPacket> = {}): RtpPacket => ({
  payloadType: 0,
  marker: false,
  sequence,
  timestamp: sequence * 160,
  ssrc: 1,
  payload: Buffer.from([sequence & 0xff]),
  ...extra,
});

describe("RTP", () => {
  it("builds and parses packets, with CSRCs, an extension and padding skipped", () => {
    const built = buildRtp(packet(65535, { marker: true, payloadType: 8, timestamp: 2 ** 32 - 1 }));
    expect(parseRtp(built)).toMatchObject({
      marker: true,
      payloadType: 8,
      sequence: 65535,
      timestamp: 2 ** 32 - 1,
    });
    const complex = Buffer.concat([
      Buffer.from([0xb1, 0x00, 0, 1, 0, 0, 0, 1, 0, 0, 0, 9]), // padding, extension, one CSRC
      Buffer.from([0, 0, 0, 2]), // CSRC
      Buffer.from([0xbe, 0xde, 0, 1, 1, 2, 3, 4]), // one extension word
      Buffer.from([7, 7, 0, 0, 2]), // payload 7 7, then 2 bytes of padding
    ]);
    expect(parseRtp(complex)?.payload).toEqual(Buffer.from([7, 7, 0]));
    expect(parseRtp(Buffer.from([0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(seqDiff(1, 65535)).toBe(2);
  });

  it("jitter buffer: reorders, drops duplicates and late packets, skips a lost one after `depth` more", () => {
    const out: number[] = [];
    const losses: number[] = [];
    const jitter = createJitterBuffer({
      depth: 3,
      onPacket: (p) => out.push(p.sequence),
      onLoss: (n) => losses.push(n),
    });
    for (const seq of [65534, 0, 0, 65535, 65535, 1, 3, 4, 5, 2, 6]) jitter.push(packet(seq));
    expect(out).toEqual([65534, 65535, 0, 1, 3, 4, 5, 6]);
    expect(losses).toEqual([1]);
    // The second 65535 and the 2 came after their turn: late; the second 0 while held: a duplicate.
    expect(jitter.stats).toMatchObject({ duplicate: 1, late: 2, lost: 1 });
  });

  it("DTMF: one digit per event, whatever the updates and end retransmissions", () => {
    const digits: string[] = [];
    const decode = createDtmfDecoder((d) => digits.push(d));
    const event = (code: number, end: boolean, duration: number, timestamp: number) =>
      packet(0, {
        payloadType: 101,
        timestamp,
        payload: Buffer.from([code, end ? 0x80 : 0, duration >> 8, duration & 0xff]),
      });
    for (const [code, ts] of [
      [1, 1000],
      [11, 5000],
      [10, 9000],
    ] as const) {
      decode(event(code, false, 160, ts));
      decode(event(code, false, 320, ts));
      for (let i = 0; i < 3; i++) decode(event(code, true, 800, ts));
    }
    decode(event(1, false, 160, 12_000)); // the same key pressed again: a new event
    expect(digits).toEqual(["1", "#", "*", "1"]);
  });

  it("DTMF from SIP INFO bodies", () => {
    expect(dtmfFromInfo("application/dtmf-relay", "Signal=5\r\nDuration=160\r\n")).toBe("5");
    expect(dtmfFromInfo("application/dtmf-relay", "Signal= #\r\n")).toBe("#");
    expect(dtmfFromInfo("application/dtmf-relay", "Signal=11\r\n")).toBe("#");
    expect(dtmfFromInfo("application/dtmf", "*")).toBe("*");
    expect(dtmfFromInfo("text/plain", "5")).toBeNull();
    expect(dtmfFromInfo("application/dtmf-relay", "Signal=x")).toBeNull();
  });
});

describe("pacer", () => {
  it("ticks from its start, without drift, each tick told its ideal time", async () => {
    const pacer = createPacer();
    const ticks: Array<{ ideal: number; at: number }> = [];
    await new Promise<void>((resolve) => {
      const member = (ideal: number) => {
        ticks.push({ ideal, at: performance.now() });
        if (ticks.length === 25) {
          pacer.remove(member);
          resolve();
        }
      };
      pacer.add(member);
    });
    pacer.stop();
    for (let i = 1; i < ticks.length; i++) {
      expect((ticks[i]?.ideal ?? 0) - (ticks[i - 1]?.ideal ?? 0)).toBeCloseTo(20, 6);
      expect(ticks[i]?.at ?? 0).toBeGreaterThanOrEqual(ticks[i]?.ideal ?? 0);
    }
  });
});
