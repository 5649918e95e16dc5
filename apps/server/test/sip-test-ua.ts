import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import sdpTransform from "sdp-transform";
import { within } from "../../../vitest.time-limits.ts";
import { FRAME_MS, FRAME_SAMPLES } from "../src/audio/audio-format.ts";
import { buildRtp, parseRtp } from "../src/modules/voice/sip/rtp.ts";
import { getHeader, parseSipMessage, type SipResponse } from "../src/modules/voice/sip/sip-message.ts";

/**
 * A small SIP user agent client for tests and benchmarks: dials over UDP on loopback with an offer of
 * L16/16000 only (wideband, so the offline recogniser can hear it), sends the caller's audio as RTP in real
 * time (20 ms packets, silence when the script is empty) and hands every received 20 ms frame to `onFrame`
 * with its arrival time. BYE either way. Independent of the server's own SIP code except the RTP packer.
 */
export type SipTestCall = {
  readonly callId: string;
  /** Where the server's media is (its SDP answer). */
  readonly remote: { address: string; port: number };
  /** performance.now() when the 200 OK to the INVITE arrived. */
  readonly answeredAt: number;
  /** Queues caller audio (16 kHz PCM16) after what is queued; answers the packet index of its first frame. */
  say(frames: Int16Array[]): number;
  /** performance.now() when packet `index` was sent (undefined until then). */
  sentAt(index: number): number | undefined;
  onFrame(listener: (frame: Int16Array, at: number) => void): void;
  /** Presses a key: RFC 4733 telephone-events (payload type 101), 100 ms with three end packets. */
  pressKey(digit: string): Promise<void>;
  /** Keys the server sent as RFC 4733 telephone-events, in order (each event once). */
  readonly keysReceived: string[];
  /** Requests the server sent in the dialog (BYE, REFER, ...), as received. */
  readonly requests: { method: string; headers: Record<string, string> }[];
  hangup(): Promise<void>;
  readonly ended: Promise<void>;
};

export type SipTestUaOptions = {
  port: number;
  user: string;
  host?: string;
  /** The Allow header of the INVITE (e.g. with REFER, so the server may transfer by REFER). */
  allow?: string;
  /**
   * How a REFER is answered: `accept` with its sipfrag status (202, then NOTIFY "SIP/2.0 180 Ringing" and
   * the final one), or refused with a status (603 Declined ...). Default accept 200.
   */
  refer?: { accept: number } | { refuse: number };
};

const rand = () => randomBytes(6).toString("hex");

const KEYS = "0123456789*#ABCD";

export async function dialSip(options: SipTestUaOptions): Promise<SipTestCall> {
  const host = options.host ?? "127.0.0.1";
  const sip = dgram.createSocket("udp4");
  const rtp = dgram.createSocket("udp4");
  await Promise.all([
    new Promise<void>((resolve) => sip.bind(0, host, resolve)),
    new Promise<void>((resolve) => rtp.bind(0, host, resolve)),
  ]);
  const sipPort = (sip.address() as AddressInfo).port;
  const rtpPort = (rtp.address() as AddressInfo).port;
  const callId = `${rand()}@${host}`;
  const fromTag = rand();
  const target = `sip:${options.user}@${host}:${options.port}`;
  let toHeader = `<sip:${options.user}@${host}>`;
  let cseq = 1;
  const listeners: ((frame: Int16Array, at: number) => void)[] = [];
  let endedResolve!: () => void;
  const ended = new Promise<void>((resolve) => {
    endedResolve = resolve;
  });

  const send = (text: string) =>
    new Promise<void>((resolve) => sip.send(Buffer.from(text), options.port, host, () => resolve()));
  const request = (method: string, seq: number, body = "", extra: string[] = []) =>
    [
      `${method} ${target} SIP/2.0`,
      `Via: SIP/2.0/UDP ${host}:${sipPort};branch=z9hG4bK${rand()};rport`,
      "Max-Forwards: 70",
      `From: <sip:bench@${host}>;tag=${fromTag}`,
      `To: ${toHeader}`,
      `Call-ID: ${callId}`,
      `CSeq: ${seq} ${method}`,
      `Contact: <sip:bench@${host}:${sipPort}>`,
      ...extra,
      `Content-Length: ${Buffer.byteLength(body)}`,
      "",
      body,
    ].join("\r\n");

  const offer = sdpTransform.write({
    version: 0,
    origin: {
      username: "-",
      sessionId: 1,
      sessionVersion: 1,
      netType: "IN",
      ipVer: 4,
      address: host,
    },
    name: "-",
    connection: { version: 4, ip: host },
    timing: { start: 0, stop: 0 },
    media: [
      {
        type: "audio",
        port: rtpPort,
        protocol: "RTP/AVP",
        payloads: "96 101",
        rtp: [
          { payload: 96, codec: "L16", rate: 16_000 },
          { payload: 101, codec: "telephone-event", rate: 16_000 },
        ],
        ptime: 20,
        direction: "sendrecv",
      },
    ],
  } as sdpTransform.SessionDescription);

  const requests: { method: string; headers: Record<string, string> }[] = [];
  const answered = new Promise<{ address: string; port: number }>((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error("no answer to the INVITE")), within(10_000));
    sip.on("message", (data) => {
      const message = parseSipMessage(data);
      if (message.kind === "request") {
        const headers: Record<string, string> = {};
        for (const [name, value] of message.headers) headers[name.toLowerCase()] ??= value;
        requests.push({ method: message.method, headers });
        const refer = options.refer ?? { accept: 200 };
        const status = message.method === "REFER" ? ("refuse" in refer ? refer.refuse : 202) : 200;
        // The server hangs up (BYE) or asks something in the dialog: 200 OK to each (REFER as configured).
        const reply = [
          `SIP/2.0 ${status} ${status === 202 ? "Accepted" : status === 200 ? "OK" : "Refused"}`,
          ...["Via", "From", "To", "Call-ID", "CSeq"].map((name) => `${name}: ${getHeader(message, name)}`),
          "Content-Length: 0",
          "",
          "",
        ].join("\r\n");
        void send(reply);
        if (message.method === "BYE") finish();
        if (message.method === "REFER" && "accept" in refer) {
          // As a PBX would: the new call rings, then is answered (or not), told in NOTIFYs.
          const notify = (line: string, state: string) =>
            send(
              request("NOTIFY", ++cseq, `${line}\r\n`, [
                "Event: refer",
                `Subscription-State: ${state}`,
                "Content-Type: message/sipfrag",
              ]),
            );
          setTimeout(() => void notify("SIP/2.0 180 Ringing", "active;expires=60"), 50);
          setTimeout(
            () =>
              void notify(
                `SIP/2.0 ${refer.accept} ${refer.accept === 200 ? "OK" : "Final"}`,
                "terminated;reason=noresource",
              ),
            150,
          );
        }
        return;
      }
      const response = message as SipResponse;
      const method = getHeader(response, "CSeq")?.split(" ")[1];
      if (method !== "INVITE" || response.status < 200) return;
      clearTimeout(timeout);
      if (response.status >= 300) return reject(new Error(`INVITE answered ${response.status}`));
      toHeader = getHeader(response, "To") ?? toHeader;
      void send(request("ACK", 1));
      const sdp = sdpTransform.parse(response.body.toString("utf8"));
      const media = sdp.media[0];
      resolve({ address: media?.connection?.ip ?? sdp.connection?.ip ?? host, port: media?.port ?? 0 });
    });
  });
  await send(
    request("INVITE", cseq, offer, [
      "Content-Type: application/sdp",
      ...(options.allow ? [`Allow: ${options.allow}`] : []),
    ]),
  );
  const remote = await answered;
  const answeredAt = performance.now();

  const keysReceived: string[] = [];
  let lastEvent = "";
  rtp.on("message", (data) => {
    const packet = parseRtp(data);
    if (packet?.payloadType === 101 && packet.payload.length >= 4) {
      const key = `${packet.timestamp}:${packet.payload[0]}`;
      if (key !== lastEvent) keysReceived.push(KEYS[packet.payload[0] as number] ?? "?");
      lastEvent = key;
      return;
    }
    if (packet?.payloadType !== 96) return;
    const samples = new Int16Array(packet.payload.length >> 1);
    for (let i = 0; i < samples.length; i++) samples[i] = packet.payload.readInt16BE(i * 2);
    const at = performance.now();
    for (const listener of listeners) listener(samples, at);
  });

  const script: Int16Array[] = [];
  const sent: number[] = [];
  const ssrc = randomBytes(4).readUInt32BE(0);
  let sequence = 0;
  const started = performance.now();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  // Real-time sending against a clock (lateness never accumulates).
  const pump = () => {
    if (stopped) return;
    while (started + sent.length * FRAME_MS <= performance.now()) {
      const frame = script.shift() ?? new Int16Array(FRAME_SAMPLES);
      const payload = Buffer.allocUnsafe(frame.length * 2);
      for (let i = 0; i < frame.length; i++) payload.writeInt16BE(frame[i] as number, i * 2);
      rtp.send(
        buildRtp({
          payloadType: 96,
          marker: sequence === 0,
          sequence: sequence & 0xffff,
          timestamp: sequence * FRAME_SAMPLES,
          ssrc,
          payload,
        }),
        remote.port,
        remote.address,
      );
      sequence++;
      sent.push(performance.now());
    }
    timer = setTimeout(pump, Math.max(0, started + sent.length * FRAME_MS - performance.now()));
  };
  pump();

  function finish() {
    if (stopped) return;
    stopped = true;
    if (timer) clearTimeout(timer);
    sip.close();
    rtp.close();
    endedResolve();
  }

  return {
    callId,
    remote,
    answeredAt,
    say(frames) {
      const index = sent.length + script.length;
      script.push(...frames);
      return index;
    },
    sentAt: (index) => sent[index],
    onFrame: (listener) => listeners.push(listener),
    keysReceived,
    requests,
    async pressKey(digit) {
      const event = KEYS.indexOf(digit.toUpperCase());
      const timestamp = (sequence + 1000) * FRAME_SAMPLES;
      for (let n = 1; n <= 8; n++) {
        const end = n > 5;
        const payload = Buffer.from([event, (end ? 0x80 : 0) | 10, 0, 0]);
        payload.writeUInt16BE(Math.min(5, n) * FRAME_SAMPLES, 2);
        rtp.send(
          buildRtp({
            payloadType: 101,
            marker: n === 1,
            sequence: 30_000 + sequence + n,
            timestamp,
            ssrc,
            payload,
          }),
          remote.port,
          remote.address,
        );
        if (n <= 5) await new Promise((resolve) => setTimeout(resolve, FRAME_MS));
      }
    },
    async hangup() {
      if (stopped) return;
      await send(request("BYE", ++cseq));
      setTimeout(finish, 200);
      await ended;
    },
    ended,
  };
}
