/**
 * A SIP user-agent client for outbound calls to a trunk (the organisation's outbound route, a carrier's SIP
 * edge): INVITE with our SDP offer (L16/16000, PCMU, PCMA, telephone-event) over UDP, retransmitted with T1
 * doubling until a provisional answer, digest authentication (RFC 2617/8760: MD5 and SHA-256) when the
 * trunk challenges with 401/407, CANCEL at the ring timeout, ACK of the final answer, and once answered a
 * CallLeg over an RTP session like the SIP server's: BYE either way ends it.
 *
 * It has its own UDP socket per call (the trunk answers to the Via/Contact of this socket), so it needs
 * nothing of the SIP server and works when SIP_PORT is off.
 */
import { randomInt, randomUUID } from "node:crypto";
import dgram from "node:dgram";
import {
  addressUri,
  authorize,
  buildOffer,
  type CallLeg,
  type CallLegInfo,
  createPacer,
  createRtpSession,
  getHeader,
  getHeaders,
  type Pacer,
  parseCSeq,
  parseSipMessage,
  pickChallenge,
  REASONS,
  type RtpSession,
  randomToken,
  readAnswer,
  type SipHeader,
  type SipRequest,
  type SipResponse,
  serializeSipMessage,
} from "../voice/index.ts";

export type SipTrunkTarget = {
  host: string;
  port: number;
  transport: "udp" | "tcp" | "tls";
  credentials?: { username: string; password: string; realm?: string };
};

export type DialResult =
  | { kind: "answered"; leg: CallLeg & { media: RtpSession["stats"] }; ringMs: number }
  | { kind: "busy" | "no_answer" | "failed"; status: number | null; reason: string };

let sharedPacer: Pacer | null = null;
const pacer = () => {
  sharedPacer ??= createPacer();
  return sharedPacer;
};

/** The answer to a trunk's challenge, with the shared digest code (strongest algorithm offered). */
function digest(
  challengeValue: string,
  method: string,
  uri: string,
  credentials: NonNullable<SipTrunkTarget["credentials"]>,
): string {
  const challenge = pickChallenge([challengeValue]);
  if (!challenge) return "";
  return authorize({
    challenge: { ...challenge, realm: challenge.realm || credentials.realm || "" },
    method,
    uri,
    username: credentials.username,
    password: credentials.password,
  });
}

/**
 * Dials `to` (an E.164 number, sent as sip:<to>@host) at the trunk. Resolves when the call is answered (with
 * its leg), refused (busy, no answer, failed) or the ring timeout passed.
 */
export async function dialSip(options: {
  target: SipTrunkTarget;
  to: string;
  from: string | null;
  /** Our address as the trunk should reach it (Via, Contact, SDP); loopback for a trunk on this machine. */
  localHost: string;
  ringTimeoutMs?: number;
  t1?: number;
  signal?: AbortSignal;
  /** The far end rings (its first 180 or 183). */
  onRinging?: () => void;
}): Promise<DialResult> {
  const { target, to } = options;
  if (target.transport !== "udp")
    return {
      kind: "failed",
      status: null,
      reason: `SIP over ${target.transport} is not supported yet: use udp`,
    };
  const t1 = options.t1 ?? 500;
  const ringTimeoutMs = options.ringTimeoutMs ?? 45_000;
  const socket = dgram.createSocket(target.host.includes(":") ? "udp6" : "udp4");
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, options.localHost, () => {
      socket.off("error", reject);
      resolve();
    });
  });
  socket.on("error", () => {});
  const localPort = socket.address().port;
  const listeners = {
    audio: [] as ((f: Int16Array) => void)[],
    dtmf: [] as ((d: string) => void)[],
    hangup: [] as (() => void)[],
  };
  let rtp: RtpSession;
  try {
    rtp = await createRtpSession({
      host: options.localHost,
      pacer: pacer(),
      onAudio: (frame) => {
        for (const listener of listeners.audio) listener(frame);
      },
      onDtmf: (digit) => {
        for (const listener of listeners.dtmf) listener(digit);
      },
    });
  } catch (error) {
    socket.close();
    return { kind: "failed", status: null, reason: `no RTP port: ${String(error)}` };
  }
  const hostPart = target.host.includes(":") ? `[${target.host}]` : target.host;
  const localPart = options.localHost.includes(":") ? `[${options.localHost}]` : options.localHost;
  const requestUri = `sip:${to}@${hostPart}:${target.port}`;
  const callId = `${randomUUID()}@${localPart}`;
  const fromTag = randomToken();
  const fromUser = options.from ?? "anonymous";
  const fromHeader = `<sip:${fromUser}@${localPart}>;tag=${fromTag}`;
  const contact = `<sip:switchboard@${localPart}:${localPort}>`;
  let cseq = randomInt(1, 10_000);
  const sdp = buildOffer({
    address: options.localHost,
    port: rtp.port,
    sessionId: randomInt(1, 2 ** 31),
    version: 1,
  });
  const send = (message: SipRequest | SipResponse) =>
    socket.send(serializeSipMessage(message), target.port, target.host);

  function invite(authorization?: [string, string]): { request: SipRequest; branch: string } {
    const branch = `z9hG4bK${randomToken()}`;
    const headers: SipHeader[] = [
      ["Via", `SIP/2.0/UDP ${localPart}:${localPort};branch=${branch};rport`],
      ["Max-Forwards", "70"],
      ["From", fromHeader],
      ["To", `<sip:${to}@${hostPart}>`],
      ["Call-ID", callId],
      ["CSeq", `${cseq} INVITE`],
      ["Contact", contact],
      ["Allow", "INVITE, ACK, CANCEL, BYE, OPTIONS"],
      ["User-Agent", "Switchboard"],
      ["Content-Type", "application/sdp"],
    ];
    if (authorization) headers.push(authorization);
    return {
      request: { kind: "request", method: "INVITE", uri: requestUri, headers, body: Buffer.from(sdp) },
      branch,
    };
  }

  const info: CallLegInfo = {
    transport: "sip",
    callId,
    from: options.from ?? "anonymous",
    to,
    narrowband: true,
  };
  let state: "calling" | "ringing" | "answered" | "ended" = "calling";
  let dialog: { toHeader: string; remoteTarget: string } | null = null;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };
  const clearTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  const close = () => {
    clearTimers();
    rtp.close();
    try {
      socket.close();
    } catch {}
  };

  function inDialogRequest(method: "BYE", extra: SipHeader[] = []): SipRequest {
    cseq++;
    return {
      kind: "request",
      method,
      uri: dialog?.remoteTarget ?? requestUri,
      headers: [
        ["Via", `SIP/2.0/UDP ${localPart}:${localPort};branch=z9hG4bK${randomToken()};rport`],
        ["Max-Forwards", "70"],
        ["From", fromHeader],
        ["To", dialog?.toHeader ?? `<sip:${to}@${hostPart}>`],
        ["Call-ID", callId],
        ["CSeq", `${cseq} ${method}`],
        ...extra,
      ],
      body: Buffer.alloc(0),
    };
  }

  function ack(response: SipResponse, inviteRequest: SipRequest, branch: string) {
    const is2xx = response.status < 300;
    const uri = is2xx ? (dialog?.remoteTarget ?? requestUri) : requestUri;
    send({
      kind: "request",
      method: "ACK",
      uri,
      headers: [
        [
          "Via",
          `SIP/2.0/UDP ${localPart}:${localPort};branch=${is2xx ? `z9hG4bK${randomToken()}` : branch};rport`,
        ],
        ["Max-Forwards", "70"],
        ["From", fromHeader],
        ["To", getHeader(response, "To") ?? ""],
        ["Call-ID", callId],
        ["CSeq", `${parseCSeq(getHeader(inviteRequest, "CSeq") ?? "")?.seq ?? cseq} ACK`],
      ],
      body: Buffer.alloc(0),
    });
  }

  function hangup(notify: boolean) {
    if (state === "ended") return;
    const wasAnswered = state === "answered";
    state = "ended";
    if (wasAnswered && !notify) {
      // Our BYE, resent until its answer (or 64·T1).
      const bye = inDialogRequest("BYE");
      let interval = t1;
      const resend = () => {
        send(bye);
        interval = Math.min(interval * 2, 4000);
        later(interval, resend);
      };
      resend();
      later(64 * t1, close);
      byeSent = true;
    } else close();
    if (notify) for (const listener of listeners.hangup) listener();
  }
  let byeSent = false;

  return new Promise<DialResult>((resolve) => {
    let settled = false;
    const settle = (result: DialResult) => {
      if (settled) return;
      settled = true;
      if (result.kind !== "answered") {
        state = "ended";
        later(2 * t1, close);
      }
      resolve(result);
    };
    const started = Date.now();
    let current = invite();
    let authTried = false;
    let retransmit: NodeJS.Timeout | null = null;
    const transmitInvite = () => {
      send(current.request);
      let interval = t1;
      const again = () => {
        if (state !== "calling") return;
        send(current.request);
        interval *= 2;
        retransmit = later(interval, again);
      };
      retransmit = later(interval, again);
    };
    transmitInvite();
    const cancel = (kind: "no_answer" | "failed", reason: string) => {
      if (state === "calling" || state === "ringing") {
        const via = getHeaders(current.request, "Via")[0] ?? "";
        send({
          kind: "request",
          method: "CANCEL",
          uri: requestUri,
          headers: [
            ["Via", via],
            ["Max-Forwards", "70"],
            ["From", fromHeader],
            ["To", `<sip:${to}@${hostPart}>`],
            ["Call-ID", callId],
            ["CSeq", `${parseCSeq(getHeader(current.request, "CSeq") ?? "")?.seq ?? cseq} CANCEL`],
          ],
          body: Buffer.alloc(0),
        });
      }
      settle({ kind, status: null, reason });
    };
    later(ringTimeoutMs, () => cancel("no_answer", "no answer before the ring timeout"));
    // No provisional answer at all within 64·T1: the trunk is unreachable.
    later(64 * t1, () => {
      if (state === "calling") cancel("failed", "the trunk did not answer (timeout)");
    });
    options.signal?.addEventListener("abort", () => cancel("failed", "cancelled"), { once: true });

    socket.on("message", (data, rinfo) => {
      let message: ReturnType<typeof parseSipMessage>;
      try {
        message = parseSipMessage(data);
      } catch {
        return;
      }
      if (getHeader(message, "Call-ID") !== callId) return;
      if (message.kind === "request") {
        const reply = (status: number) =>
          socket.send(
            serializeSipMessage({
              kind: "response",
              status,
              reason: REASONS[status] ?? "OK",
              headers: message.headers.filter(([name]) =>
                ["Via", "From", "To", "Call-ID", "CSeq"].includes(name),
              ),
              body: Buffer.alloc(0),
            }),
            rinfo.port,
            rinfo.address,
          );
        if (message.method === "BYE") {
          reply(200);
          hangup(true);
          later(2 * t1, close);
        } else if (message.method === "ACK") {
          // nothing
        } else reply(state === "answered" ? 200 : 481);
        return;
      }
      const response = message;
      const method = parseCSeq(getHeader(response, "CSeq") ?? "")?.method;
      if (method === "BYE") {
        if (byeSent) close();
        return;
      }
      if (method !== "INVITE") return;
      if (response.status < 200) {
        if (retransmit) clearTimeout(retransmit);
        if (state === "calling") state = "ringing";
        if (response.status === 180 || response.status === 183) {
          const ringing = options.onRinging;
          options.onRinging = undefined;
          ringing?.();
        }
        return;
      }
      if (state === "answered") {
        // A retransmitted 2xx: our ACK got lost.
        if (response.status < 300) ack(response, current.request, current.branch);
        return;
      }
      if (retransmit) clearTimeout(retransmit);
      if (
        (response.status === 401 || response.status === 407) &&
        target.credentials &&
        !authTried &&
        !settled
      ) {
        ack(response, current.request, current.branch);
        authTried = true;
        const challenge =
          getHeader(response, response.status === 401 ? "WWW-Authenticate" : "Proxy-Authenticate") ?? "";
        cseq++;
        current = invite([
          response.status === 401 ? "Authorization" : "Proxy-Authorization",
          digest(challenge, "INVITE", requestUri, target.credentials),
        ]);
        state = "calling";
        transmitInvite();
        return;
      }
      if (response.status >= 300) {
        ack(response, current.request, current.branch);
        const status = response.status;
        const kind = [486, 600].includes(status)
          ? "busy"
          : [408, 480, 487, 603].includes(status)
            ? "no_answer"
            : "failed";
        settle({ kind, status, reason: `${status} ${response.reason}` });
        return;
      }
      // 200 OK: the dialog, its media, our ACK.
      const contactHeader = getHeaders(response, "Contact")[0];
      dialog = {
        toHeader: getHeader(response, "To") ?? "",
        remoteTarget: contactHeader ? addressUri(contactHeader) : requestUri,
      };
      ack(response, current.request, current.branch);
      if (settled) {
        // Answered after we gave up (CANCEL crossed the 200): hang it up.
        state = "answered";
        hangup(false);
        return;
      }
      const answer = readAnswer(response.body.toString("utf8"));
      if (!answer.ok) {
        state = "answered";
        hangup(false);
        settle({ kind: "failed", status: 488, reason: answer.reason });
        return;
      }
      rtp.apply(answer.audio);
      info.narrowband = answer.audio.codec !== "L16";
      state = "answered";
      const leg = {
        info,
        onAudio: (listener: (f: Int16Array) => void) => void listeners.audio.push(listener),
        onDtmf: (listener: (d: string) => void) => void listeners.dtmf.push(listener),
        onHangup: (listener: () => void) => void listeners.hangup.push(listener),
        sendAudio: (frame: Int16Array) => rtp.sendAudio(frame),
        clearAudio: () => rtp.clearAudio(),
        queuedFrames: () => rtp.queuedFrames(),
        hangup: () => hangup(false),
        sendDtmf: async (digits: string) => {
          if (!rtp.sendDigits(digits)) return false;
          while (rtp.queuedDigits() > 0 && state === "answered") await new Promise((r) => setTimeout(r, 40));
          return state === "answered";
        },
        media: rtp.stats,
      };
      settle({ kind: "answered", leg, ringMs: Date.now() - started });
    });
  });
}
