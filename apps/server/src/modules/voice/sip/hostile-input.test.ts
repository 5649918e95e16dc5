// SDP and RTP a caller controls cannot take the server down or the call's audio away: impossible ports are
// refused with 488, sending never throws (it runs in the shared pacer's timer), and media from port 0 or
// another host does not move where the call's audio goes.
import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FRAME_SAMPLES } from "../../../audio/audio-format.ts";
import type { PacerMember } from "./pacer.ts";
import { startRegistration } from "./registration-client.ts";
import { buildRtp, parseRtp } from "./rtp.ts";
import { createRtpSession, latchable } from "./rtp-session.ts";
import { type NegotiatedAudio, negotiateOffer } from "./sdp.ts";
import { getHeader, parseSipMessage, type SipResponse } from "./sip-message.ts";
import { type SipServer, startSipServer } from "./sip-server.ts";

const offer = (m: string, c = "127.0.0.1") =>
  ["v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", `c=IN IP4 ${c}`, "t=0 0", m, ""].join("\r\n");

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on("unhandledRejection", record);
});
afterAll(() => {
  process.off("unhandledRejection", record);
});

describe("SDP a caller controls", () => {
  it.each(["99999", "65536", "-1", "0", "abc"])("refuses m=audio %s with 488", (port) => {
    expect(negotiateOffer(offer(`m=audio ${port} RTP/AVP 0`))).toMatchObject({ ok: false, status: 488 });
  });

  it("refuses a connection address that is not one unicast IP address with 488", () => {
    for (const c of ["300.1.1.1", "example.com", "224.2.1.1/127", "255.255.255.255", "\u0000"])
      expect(negotiateOffer(offer("m=audio 4000 RTP/AVP 0", c))).toMatchObject({ ok: false, status: 488 });
    expect(negotiateOffer(offer("m=audio 65535 RTP/AVP 0"))).toMatchObject({ ok: true });
  });
});

/** A pacer the test ticks by hand. */
function handPacer() {
  const members = new Set<PacerMember>();
  return {
    pacer: {
      add: (member: PacerMember) => void members.add(member),
      remove: (member: PacerMember) => void members.delete(member),
      skipped: 0,
      stop: () => members.clear(),
    },
    tick: () => {
      for (const member of members) member(performance.now());
    },
  };
}

const audio = (remotePort: number, remoteAddress = "127.0.0.1"): NegotiatedAudio => ({
  codec: "L16",
  payloadType: 96,
  clockRate: 16_000,
  telephoneEvent: null,
  telephoneEventRate: 16_000,
  remoteAddress,
  remotePort,
  direction: "sendrecv",
  mediaIndex: 0,
  offered: [{ type: "audio", protocol: "RTP/AVP", payloads: "96" }],
});

async function udpSocket(address = "127.0.0.1") {
  const socket = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  const received: Buffer[] = [];
  socket.on("message", (data) => received.push(data));
  return { socket, received, port: (socket.address() as AddressInfo).port };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

describe("RTP a caller controls", () => {
  it("sending to an impossible port never throws out of the pacer's tick", async () => {
    const { pacer, tick } = handPacer();
    const rtp = await createRtpSession({ host: "127.0.0.1", pacer, onAudio: () => {}, onDtmf: () => {} });
    for (const port of [99_999, 65_536, -1, 0]) {
      rtp.apply(audio(port));
      rtp.sendAudio(new Int16Array(FRAME_SAMPLES).fill(1000));
      expect(() => tick()).not.toThrow();
      expect(() => tick()).not.toThrow(); // silence too
    }
    rtp.close();
  });

  it("latches only to a valid port of the host the SDP named", () => {
    const sdp = audio(4000);
    expect(latchable({ address: "127.0.0.1", port: 4002 }, sdp)).toBe(true);
    expect(latchable({ address: "::ffff:127.0.0.1", port: 4002 }, sdp)).toBe(true);
    expect(latchable({ address: "127.0.0.1", port: 0 }, sdp)).toBe(false);
    expect(latchable({ address: "127.0.0.2", port: 4002 }, sdp)).toBe(false);
  });

  it("keeps sending to the caller when media arrives from another host, and follows the caller's own port", async () => {
    const { pacer, tick } = handPacer();
    const caller = await udpSocket(); // the address its SDP named
    const stranger = await udpSocket("127.0.0.2");
    const natted = await udpSocket(); // the caller's real port (a NAT)
    const rtp = await createRtpSession({ host: "127.0.0.1", pacer, onAudio: () => {}, onDtmf: () => {} });
    rtp.apply(audio(caller.port));
    const packet = (sequence: number) =>
      buildRtp({
        payloadType: 96,
        marker: false,
        sequence,
        timestamp: sequence * FRAME_SAMPLES,
        ssrc: randomBytes(4).readUInt32BE(0),
        payload: Buffer.alloc(FRAME_SAMPLES * 2),
      });
    stranger.socket.send(packet(1), rtp.port, "127.0.0.1");
    await settle();
    tick();
    await settle();
    expect(caller.received.length).toBe(1);
    expect(stranger.received.length).toBe(0);
    natted.socket.send(packet(2), rtp.port, "127.0.0.1");
    await settle();
    tick();
    await settle();
    expect(natted.received.length).toBe(1);
    expect(parseRtp(natted.received[0] as Buffer)?.payloadType).toBe(96);
    rtp.close();
    for (const one of [caller, stranger, natted]) one.socket.close();
  });
});

describe("a SIP server fed impossible addresses", () => {
  let server: SipServer;
  let legs: { hangup(): void }[] = [];
  beforeAll(async () => {
    server = await startSipServer({
      host: "127.0.0.1",
      port: 0,
      t1: 50,
      onCall: (leg) => {
        legs.push(leg);
        return undefined;
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Sends one request and answers the final response to it (a 2xx to an INVITE is acknowledged). */
  async function exchange(lines: string[], body = ""): Promise<SipResponse> {
    const { socket, port } = await udpSocket();
    const text = (head: string[], content = "") =>
      [
        ...head.map((line) => line.replace("{port}", String(port))),
        `Content-Length: ${content.length}`,
        "",
        content,
      ].join("\r\n");
    socket.send(Buffer.from(text(lines, body)), server.port, "127.0.0.1");
    const response = await new Promise<SipResponse>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error("no final response")), 5000);
      socket.on("message", (data) => {
        const message = parseSipMessage(data);
        if (message.kind === "response" && message.status >= 200) {
          clearTimeout(timeout);
          resolve(message);
        }
      });
    });
    if (lines[0]?.startsWith("INVITE") && response.status === 200) {
      const ack = lines
        .filter((line) => !/^(Content-Type|Contact):/.test(line))
        .map((line) =>
          line
            .replace(/^INVITE /, "ACK ")
            .replace(/^CSeq: 1 INVITE/, "CSeq: 1 ACK")
            .replace(/^To: .*/, `To: ${getHeader(response, "To")}`)
            .replace(/branch=z9hG4bK\w+/, `branch=z9hG4bK${randomBytes(6).toString("hex")}`),
        );
      socket.send(Buffer.from(text(ack)), server.port, "127.0.0.1");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    socket.close();
    return response;
  }

  const invite = (callId: string, contactPort: string) => [
    `INVITE sip:5@127.0.0.1:${server.port} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:{port};branch=z9hG4bK${randomBytes(6).toString("hex")};rport`,
    "Max-Forwards: 70",
    "From: <sip:fuzz@127.0.0.1>;tag=f1",
    `To: <sip:5@127.0.0.1:${server.port}>`,
    `Call-ID: ${callId}`,
    "CSeq: 1 INVITE",
    `Contact: <sip:fuzz@127.0.0.1:${contactPort}>`,
    "Content-Type: application/sdp",
  ];

  it("answers an INVITE whose SDP names port 99999 with 488, not 200", async () => {
    const response = await exchange(invite("bad-port@fuzz", "5060"), offer("m=audio 99999 RTP/AVP 0"));
    expect(response.status).toBe(488);
    expect(legs).toHaveLength(0);
  });

  it("hangs up a call whose Contact names port 99999 without a word to the process", async () => {
    const response = await exchange(invite("bad-contact@fuzz", "99999"), offer("m=audio 4000 RTP/AVP 0"));
    expect(response.status).toBe(200);
    legs[0]?.hangup(); // our BYE goes to the Contact: a port nobody can send to
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(unhandled).toEqual([]);
    const options = await exchange([
      `OPTIONS sip:127.0.0.1:${server.port} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:{port};branch=z9hG4bK${randomBytes(6).toString("hex")}`,
      "Max-Forwards: 70",
      "From: <sip:fuzz@127.0.0.1>;tag=f2",
      `To: <sip:127.0.0.1:${server.port}>`,
      "Call-ID: still-there@fuzz",
      "CSeq: 1 OPTIONS",
    ]);
    expect(options.status).toBe(200);
    legs = [];
  });
});

describe("a registration to a PBX", () => {
  it("whose status listener throws goes on retrying, with nothing unhandled", async () => {
    const seen: string[] = [];
    const registration = startRegistration({
      sender: { port: 5060, request: async () => null },
      target: { host: "127.0.0.1", port: 5062, transport: "udp", username: "1001", expires: 300 },
      contactHost: "127.0.0.1",
      resolve: async (host) => host,
      onStatus: (status) => {
        seen.push(status.state);
        if (status.state !== "stopped") throw new Error("a listener with a bug");
      },
      retrySeconds: [0.05],
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await registration.stop(false);
    expect(seen.filter((state) => state === "registering").length).toBeGreaterThan(1);
    expect(unhandled).toEqual([]);
  });
});
