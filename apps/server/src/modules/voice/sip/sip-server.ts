/**
 * A SIP user-agent server (RFC 3261) on UDP and TCP that answers calls and turns each one into a CallLeg.
 *
 * What it does: INVITE (100 Trying, optional 180 Ringing, 200 OK with an SDP answer, or a delayed offer
 * answered in the ACK), ACK, BYE both ways, CANCEL (487 for the INVITE), OPTIONS, re-INVITE and UPDATE
 * (hold with a=sendonly/inactive, resume, codec change, session refresh), INFO with DTMF, session timers
 * (RFC 4028: 422 below our Min-SE, refresher uac watched, refresher uas refreshed by us), 420 for required
 * extensions we lack, 481/405/501 where due. Transactions follow RFC 3261 §17 with RFC 6026's fix:
 * retransmitted requests get the last response again, our 2xx is retransmitted until its ACK, non-2xx
 * finals until theirs, our own requests are retransmitted over UDP with T1 doubling.
 */
import { randomBytes, randomInt } from "node:crypto";
import dgram from "node:dgram";
import { lookup } from "node:dns/promises";
import net from "node:net";
import type { CallLeg, CallLegInfo } from "../call-leg.ts";
import { createPacer, type Pacer } from "./pacer.ts";
import { dtmfFromInfo } from "./rtp.ts";
import { createRtpSession, type RtpSession, type RtpStats } from "./rtp-session.ts";
import {
  buildAnswer,
  buildOffer,
  type LocalSession,
  type NegotiatedAudio,
  negotiateOffer,
  readAnswer,
} from "./sdp.ts";
import {
  addressUri,
  createSipStreamParser,
  getHeader,
  getHeaders,
  headerParams,
  parseCSeq,
  parseSipMessage,
  parseSipUri,
  parseVia,
  REASONS,
  type SipHeader,
  type SipMessage,
  type SipRequest,
  type SipResponse,
  serializeSipMessage,
} from "./sip-message.ts";

export type SipLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
};

export type SipRemote = { transport: "udp" | "tcp"; address: string; port: number };

/** What the caller dialled: `sip:<agent account id>@host` in development. */
export type SipCallTarget = {
  /** The Request-URI's user part when it is a whole number (an agent account id), else null. */
  agentAccountId: number | null;
  user: string | undefined;
  requestUri: string;
  remote: SipRemote;
};

/** Accept (nothing, or undefined) or refuse with a SIP status (404 Not Found, 403, 486 Busy Here ...). */
export type SipCallDecision = undefined | { status: number; reason?: string };

/** The CallLeg of a SIP call, with its media counters (tests, benches). */
export type SipCallLeg = CallLeg & { readonly media: RtpStats };

export type SipServerOptions = {
  host: string;
  /** 0 picks a free port (the same one for UDP and TCP). */
  port: number;
  tcp?: boolean;
  onCall: (leg: SipCallLeg, target: SipCallTarget) => SipCallDecision | Promise<SipCallDecision>;
  log?: SipLogger;
  /** Send 180 Ringing before answering (default true). */
  ringing?: boolean;
  /** Keep RTP flowing with silence when nothing is queued (default true; see rtp-session.ts). */
  silenceFill?: boolean;
  /** Our Min-SE in seconds (RFC 4028 says at least 90). */
  minSessionExpires?: number;
  /** Session interval we propose when the caller supports timers but named none (seconds). */
  sessionExpires?: number;
  /** RFC 3261 T1 in ms (tests shorten it). */
  t1?: number;
  userAgent?: string;
};

export type SipServer = {
  readonly port: number;
  readonly host: string;
  /** Calls in progress. */
  activeCalls(): number;
  readonly pacer: Pacer;
  close(): Promise<void>;
};

const ALLOW = "INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, UPDATE";
/** Methods we know and refuse with 405 (everything else unknown is 501). */
const KNOWN = new Set(["REGISTER", "SUBSCRIBE", "NOTIFY", "PUBLISH", "MESSAGE", "REFER", "PRACK"]);
const SUPPORTED = new Set(["timer"]);

type Source = SipRemote & { socket?: net.Socket };

type ServerTransaction = {
  key: string;
  request: SipRequest;
  source: Source;
  lastResponse: SipResponse | null;
  timers: NodeJS.Timeout[];
  cancelled: boolean;
  call: Call | null;
};

type ClientTransaction = {
  branch: string;
  method: string;
  resolve: (response: SipResponse | null) => void;
  timers: NodeJS.Timeout[];
};

type SessionTimer = { interval: number; refresher: "uac" | "uas"; timer: NodeJS.Timeout | null };

type Call = {
  callId: string;
  localTag: string;
  /** Their From (with their tag): our To in requests we send. */
  remoteAddress: string;
  /** Our To (with our tag): our From in requests we send. */
  localAddress: string;
  remoteTarget: string;
  routeSet: string[];
  remoteCSeq: number;
  localCSeq: number;
  source: Source;
  localHost: string;
  state: "early" | "answered" | "confirmed" | "ended";
  rtp: RtpSession;
  audio: NegotiatedAudio | null;
  sdpSession: LocalSession;
  lastSdp: string;
  info: CallLegInfo;
  leg: SipCallLeg;
  listeners: {
    audio: Array<(f: Int16Array) => void>;
    dtmf: Array<(d: string) => void>;
    hangup: Array<() => void>;
  };
  inviteTx: ServerTransaction;
  /** A 2xx we retransmit until its ACK (initial INVITE or re-INVITE). */
  pending2xx: { response: SipResponse; timers: NodeJS.Timeout[]; offerInAnswer: boolean } | null;
  pendingBye: string | null;
  sessionTimer: SessionTimer | null;
  supportsUpdate: boolean;
  refreshing: boolean;
};

function randomToken(bytes = 8): string {
  return randomBytes(bytes).toString("hex");
}

function tagOf(value: string | undefined): string | undefined {
  return value === undefined ? undefined : headerParams(value).tag;
}

function deltaSeconds(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^\s*(\d{1,10})/.exec(value);
  return match ? Number(match[1]) : null;
}

function hasOption(message: SipMessage, header: string, option: string): boolean {
  return getHeaders(message, header).some((v) => v.split(",").some((o) => o.trim().toLowerCase() === option));
}

export async function startSipServer(options: SipServerOptions): Promise<SipServer> {
  const log = options.log;
  const t1 = options.t1 ?? 500;
  const t2 = Math.max(t1, 4000);
  const minSE = Math.max(90, options.minSessionExpires ?? 90);
  const defaultSE = Math.max(minSE, options.sessionExpires ?? 1800);
  const userAgent = options.userAgent ?? "Switchboard";
  const pacer = createPacer();
  const serverTx = new Map<string, ServerTransaction>();
  const clientTx = new Map<string, ClientTransaction>();
  const calls = new Map<string, Call>();
  const connections = new Map<string, net.Socket>();
  const lingering = new Set<NodeJS.Timeout>();
  const ackCache = new Map<string, () => void>();
  let closing = false;

  const udp = dgram.createSocket(net.isIP(options.host) === 6 ? "udp6" : "udp4");
  await new Promise<void>((resolve, reject) => {
    udp.once("error", reject);
    udp.bind(options.port, options.host, () => {
      udp.off("error", reject);
      resolve();
    });
  });
  udp.on("error", (error) => log?.warn({ err: error }, "SIP UDP socket error"));
  const port = udp.address().port;

  let tcpServer: net.Server | null = null;
  if (options.tcp ?? true) {
    tcpServer = net.createServer((socket) => acceptTcp(socket));
    try {
      await new Promise<void>((resolve, reject) => {
        tcpServer?.once("error", reject);
        tcpServer?.listen(port, options.host, () => {
          tcpServer?.off("error", reject);
          resolve();
        });
      });
    } catch (error) {
      log?.warn({ err: error, port }, "SIP over TCP is off: the port is taken");
      tcpServer = null;
    }
  }

  // ---------------------------------------------------------------- transport

  udp.on("message", (data, rinfo) => {
    if (data.length <= 4 && data.every((b) => b === 0x0d || b === 0x0a || b === 0)) return; // keep-alive
    let message: SipMessage;
    try {
      message = parseSipMessage(data);
    } catch (error) {
      log?.debug({ err: error, from: `${rinfo.address}:${rinfo.port}` }, "dropped a malformed SIP datagram");
      return;
    }
    receive(message, { transport: "udp", address: rinfo.address, port: rinfo.port });
  });

  function acceptTcp(socket: net.Socket) {
    if (closing) {
      socket.destroy();
      return;
    }
    const parser = createSipStreamParser();
    const source: Source = {
      transport: "tcp",
      address: socket.remoteAddress ?? "",
      port: socket.remotePort ?? 0,
      socket,
    };
    const key = `${source.address}:${source.port}`;
    connections.set(key, socket);
    socket.on("close", () => {
      if (connections.get(key) === socket) connections.delete(key);
    });
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      let messages: SipMessage[];
      try {
        messages = parser.push(chunk);
      } catch (error) {
        log?.debug({ err: error, from: key }, "closed a SIP TCP connection that sent a malformed message");
        socket.destroy();
        return;
      }
      for (const message of messages) receive(message, source);
    });
  }

  const pendingSends = new Set<Promise<void>>();

  function transmit(message: SipMessage, to: Source): void {
    const data = serializeSipMessage(message);
    if (to.transport === "tcp") {
      const socket =
        to.socket && !to.socket.destroyed ? to.socket : connections.get(`${to.address}:${to.port}`);
      if (socket && !socket.destroyed) {
        socket.write(data);
        return;
      }
      // No open connection (requests we originate after theirs closed): open one.
      const fresh = net.connect({ host: to.address, port: to.port });
      fresh.on("error", () => {});
      fresh.write(data);
      acceptTcpReplies(fresh, to);
      return;
    }
    const sent = new Promise<void>((resolve) => {
      udp.send(data, to.port, to.address, () => resolve());
    });
    pendingSends.add(sent);
    void sent.then(() => pendingSends.delete(sent));
  }

  function acceptTcpReplies(socket: net.Socket, to: Source) {
    const parser = createSipStreamParser();
    const key = `${to.address}:${to.port}`;
    connections.set(key, socket);
    socket.on("close", () => {
      if (connections.get(key) === socket) connections.delete(key);
    });
    socket.on("data", (chunk: Buffer) => {
      try {
        for (const message of parser.push(chunk)) receive(message, { ...to, socket });
      } catch {
        socket.destroy();
      }
    });
  }

  function receive(message: SipMessage, source: Source) {
    if (closing) return;
    try {
      if (message.kind === "response") onResponse(message);
      else onRequest(message, source);
    } catch (error) {
      log?.warn({ err: error }, "SIP message handling failed");
    }
  }

  // ---------------------------------------------------------------- responses we send

  function buildResponse(
    request: SipRequest,
    status: number,
    options: {
      toTag?: string;
      headers?: SipHeader[];
      body?: string;
      contentType?: string;
      source?: Source;
    } = {},
  ): SipResponse {
    const headers: SipHeader[] = [];
    getHeaders(request, "Via").forEach((via, index) => {
      if (index === 0 && options.source) {
        // RFC 3581: tell the client where its request came from (it will be answered there).
        const params = headerParams(via);
        let value = via;
        if ("rport" in params) value = value.replace(/;rport(=[^;]*)?/i, `;rport=${options.source.port}`);
        if (!("received" in params)) value += `;received=${options.source.address}`;
        headers.push(["Via", value]);
      } else headers.push(["Via", via]);
    });
    headers.push(["From", getHeader(request, "From") ?? ""]);
    let to = getHeader(request, "To") ?? "";
    if (options.toTag && !tagOf(to) && status > 100) to += `;tag=${options.toTag}`;
    headers.push(["To", to]);
    headers.push(["Call-ID", getHeader(request, "Call-ID") ?? ""]);
    headers.push(["CSeq", getHeader(request, "CSeq") ?? ""]);
    if (status >= 180 && status < 300 && request.method === "INVITE") {
      for (const route of getHeaders(request, "Record-Route")) headers.push(["Record-Route", route]);
    }
    headers.push(["Server", userAgent]);
    for (const header of options.headers ?? []) headers.push(header);
    if (options.body !== undefined) headers.push(["Content-Type", options.contentType ?? "application/sdp"]);
    return {
      kind: "response",
      status,
      reason: REASONS[status] ?? "Unknown",
      headers,
      body: Buffer.from(options.body ?? "", "utf8"),
    };
  }

  function txKey(request: SipRequest): string {
    const via = parseVia(getHeaders(request, "Via")[0] ?? "");
    const branch = via?.params.branch;
    const method = request.method === "ACK" ? "INVITE" : request.method;
    if (branch?.startsWith("z9hG4bK")) return `${branch}|${via?.host}:${via?.port ?? ""}|${method}`;
    // RFC 2543 peers: match on what identifies the request instead.
    const cseq = parseCSeq(getHeader(request, "CSeq") ?? "");
    return `${getHeader(request, "Call-ID")}|${tagOf(getHeader(request, "From"))}|${cseq?.seq}|${method}`;
  }

  function later(ms: number, fn: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      lingering.delete(timer);
      fn();
    }, ms);
    lingering.add(timer);
    return timer;
  }

  function clearTimers(timers: NodeJS.Timeout[]) {
    for (const timer of timers) {
      clearTimeout(timer);
      lingering.delete(timer);
    }
    timers.length = 0;
  }

  /** Sends a response in a server transaction: provisional ones, then a final one that is kept for resends. */
  function respond(tx: ServerTransaction, response: SipResponse) {
    if (tx.lastResponse && tx.lastResponse.status >= 200) return; // already final
    tx.lastResponse = response;
    transmit(response, tx.source);
    if (response.status < 200) return;
    const isInvite = tx.request.method === "INVITE";
    if (isInvite && response.status >= 300 && tx.source.transport === "udp") {
      // Timer G: resend the final response until the ACK (which clears the timers), Timer H: give up.
      let interval = t1;
      const resend = () => {
        transmit(response, tx.source);
        interval = Math.min(interval * 2, t2);
        tx.timers.push(later(interval, resend));
      };
      tx.timers.push(later(interval, resend));
    }
    // Keep the transaction to absorb retransmissions (Timer J / RFC 6026 Timer L), then forget it.
    tx.timers.push(
      later(64 * t1, () => {
        clearTimers(tx.timers);
        serverTx.delete(tx.key);
      }),
    );
  }

  function reply(
    request: SipRequest,
    source: Source,
    status: number,
    extra: Parameters<typeof buildResponse>[2] = {},
  ) {
    const tx = openTransaction(request, source);
    respond(tx, buildResponse(request, status, { ...extra, source }));
  }

  function openTransaction(request: SipRequest, source: Source): ServerTransaction {
    const key = txKey(request);
    const existing = serverTx.get(key);
    if (existing) return existing;
    const tx: ServerTransaction = {
      key,
      request,
      source,
      lastResponse: null,
      timers: [],
      cancelled: false,
      call: null,
    };
    serverTx.set(key, tx);
    return tx;
  }

  // ---------------------------------------------------------------- requests we receive

  function onRequest(request: SipRequest, source: Source) {
    if (request.method === "ACK") {
      onAck(request);
      return;
    }
    const existing = serverTx.get(txKey(request));
    if (existing) {
      // A retransmission: answer it as before (or, while an INVITE is still being decided, say Trying).
      if (existing.lastResponse) transmit(existing.lastResponse, existing.source);
      return;
    }
    if (request.method === "CANCEL") {
      onCancel(request, source);
      return;
    }
    const maxForwards = getHeader(request, "Max-Forwards");
    if (maxForwards !== undefined && Number(maxForwards) === 0 && request.method !== "OPTIONS") {
      reply(request, source, 483);
      return;
    }
    const required = getHeaders(request, "Require")
      .flatMap((value) => value.split(","))
      .map((option) => option.trim().toLowerCase())
      .filter((option) => option && !SUPPORTED.has(option));
    if (required.length && request.method !== "CANCEL") {
      reply(request, source, 420, { headers: [["Unsupported", required.join(", ")]] });
      return;
    }
    const toTag = tagOf(getHeader(request, "To"));
    if (toTag) {
      inDialog(request, source, toTag);
      return;
    }
    switch (request.method) {
      case "INVITE":
        void onInvite(request, source);
        return;
      case "OPTIONS":
        reply(request, source, 200, {
          toTag: randomToken(),
          headers: [
            ["Allow", ALLOW],
            ["Accept", "application/sdp, application/dtmf-relay, application/dtmf"],
            ["Supported", "timer"],
          ],
        });
        return;
      case "BYE":
      case "INFO":
      case "UPDATE":
        reply(request, source, 481);
        return;
      default:
        reply(request, source, KNOWN.has(request.method) ? 405 : 501, { headers: [["Allow", ALLOW]] });
    }
  }

  function onAck(request: SipRequest) {
    // An ACK for a non-2xx final shares the INVITE's branch: it ends that transaction's resends.
    const tx = serverTx.get(txKey(request));
    if (tx?.lastResponse && tx.lastResponse.status >= 300) {
      clearTimers(tx.timers);
      tx.timers.push(later(tx.source.transport === "udp" ? t2 * 1.25 : 0, () => serverTx.delete(tx.key)));
      return;
    }
    // An ACK for our 2xx is its own transaction, in the dialog.
    const toTag = tagOf(getHeader(request, "To"));
    const call = toTag ? calls.get(`${getHeader(request, "Call-ID")}|${toTag}`) : undefined;
    if (!call?.pending2xx) return;
    const cseq = parseCSeq(getHeader(request, "CSeq") ?? "");
    const acked = parseCSeq(getHeader(call.pending2xx.response, "CSeq") ?? "");
    if (!cseq || !acked || cseq.seq !== acked.seq) return;
    const { offerInAnswer } = call.pending2xx;
    clearTimers(call.pending2xx.timers);
    call.pending2xx = null;
    if (offerInAnswer && request.body.length) {
      const result = readAnswer(request.body.toString("utf8"));
      if (result.ok) applyAudio(call, result.audio);
      else {
        log?.info({ callId: call.callId, reason: result.reason }, "SIP ACK carried an unusable answer");
        hangupCall(call, "Incompatible media", true);
        return;
      }
    }
    if (call.state === "answered") call.state = "confirmed";
    if (call.pendingBye !== null) sendBye(call, call.pendingBye);
  }

  function onCancel(request: SipRequest, source: Source) {
    const inviteKey = txKey({ ...request, method: "INVITE" });
    const invite = serverTx.get(inviteKey);
    if (!invite) {
      reply(request, source, 481);
      return;
    }
    reply(request, source, 200);
    if (invite.lastResponse && invite.lastResponse.status >= 200) return; // too late: already answered
    invite.cancelled = true;
    respond(
      invite,
      buildResponse(invite.request, 487, {
        toTag: invite.call?.localTag ?? randomToken(),
        source: invite.source,
      }),
    );
    if (invite.call) endCall(invite.call, true, "cancelled");
  }

  // ---------------------------------------------------------------- INVITE

  function sessionTimerFor(request: SipRequest): { ok: true; timer: SessionTimer | null } | { ok: false } {
    const supportsTimer = hasOption(request, "Supported", "timer") || hasOption(request, "Require", "timer");
    const seValue = getHeader(request, "Session-Expires");
    const requested = deltaSeconds(seValue);
    if (seValue !== undefined && requested === null) return { ok: true, timer: null };
    const theirMin = deltaSeconds(getHeader(request, "Min-SE")) ?? 0;
    if (requested !== null && requested < minSE) {
      // Too short: refuse if the caller can retry with a longer one (RFC 4028 §8.1), else raise it.
      if (supportsTimer) return { ok: false };
    }
    if (requested === null && !supportsTimer) return { ok: true, timer: null };
    const interval = Math.max(requested ?? defaultSE, minSE, theirMin);
    const asked = seValue ? headerParams(seValue).refresher : undefined;
    const refresher = !supportsTimer ? "uas" : asked === "uas" ? "uas" : "uac";
    return { ok: true, timer: { interval, refresher, timer: null } };
  }

  async function onInvite(request: SipRequest, source: Source) {
    const tx = openTransaction(request, source);
    const callId = getHeader(request, "Call-ID") ?? "";
    const localTag = randomToken();
    const session = sessionTimerFor(request);
    if (!session.ok) {
      respond(
        tx,
        buildResponse(request, 422, { toTag: localTag, source, headers: [["Min-SE", String(minSE)]] }),
      );
      return;
    }
    const contentType = (getHeader(request, "Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
    let offer: NegotiatedAudio | null = null;
    if (request.body.length) {
      if (contentType !== "application/sdp") {
        respond(
          tx,
          buildResponse(request, 415, { toTag: localTag, source, headers: [["Accept", "application/sdp"]] }),
        );
        return;
      }
      const result = negotiateOffer(request.body.toString("utf8"));
      if (!result.ok) {
        respond(
          tx,
          buildResponse(request, result.status, {
            toTag: localTag,
            source,
            headers: [["Warning", `305 ${userAgent} "${result.reason}"`]],
          }),
        );
        return;
      }
      offer = result.audio;
    }
    respond(tx, buildResponse(request, 100, { source }));

    const requestUri = parseSipUri(request.uri);
    const contact = getHeaders(request, "Contact")[0];
    const remoteTarget = contact ? addressUri(contact) : addressUri(getHeader(request, "From") ?? "");
    const localHost =
      requestUri && net.isIP(requestUri.host) && !["0.0.0.0", "::"].includes(requestUri.host)
        ? requestUri.host
        : ["0.0.0.0", "::"].includes(options.host)
          ? "127.0.0.1"
          : options.host;

    let rtp: RtpSession;
    const listeners: Call["listeners"] = { audio: [], dtmf: [], hangup: [] };
    try {
      rtp = await createRtpSession({
        host: options.host,
        pacer,
        silenceFill: options.silenceFill,
        onAudio: (frame) => {
          for (const listener of listeners.audio) listener(frame);
        },
        onDtmf: (digit) => {
          for (const listener of listeners.dtmf) listener(digit);
        },
      });
    } catch (error) {
      log?.warn({ err: error }, "could not open an RTP socket");
      respond(tx, buildResponse(request, 503, { toTag: localTag, source }));
      return;
    }
    const info: CallLegInfo = {
      transport: "sip",
      callId,
      from: addressUri(getHeader(request, "From") ?? ""),
      to: addressUri(getHeader(request, "To") ?? ""),
      narrowband: offer ? offer.codec !== "L16" : true,
    };
    const cseq = parseCSeq(getHeader(request, "CSeq") ?? "");
    const call: Call = {
      callId,
      localTag,
      remoteAddress: getHeader(request, "From") ?? "",
      localAddress: `${getHeader(request, "To") ?? ""};tag=${localTag}`,
      remoteTarget,
      routeSet: getHeaders(request, "Record-Route"),
      remoteCSeq: cseq?.seq ?? 0,
      localCSeq: randomInt(1, 10_000),
      source,
      localHost,
      state: "early",
      rtp,
      audio: null,
      sdpSession: { address: localHost, port: rtp.port, sessionId: randomInt(1, 2 ** 31), version: 1 },
      lastSdp: "",
      info,
      leg: null as unknown as SipCallLeg,
      listeners,
      inviteTx: tx,
      pending2xx: null,
      pendingBye: null,
      sessionTimer: session.timer,
      supportsUpdate: getHeaders(request, "Allow").some((v) => /\bUPDATE\b/i.test(v)),
      refreshing: false,
    };
    call.leg = {
      info,
      onAudio: (listener) => void listeners.audio.push(listener),
      onDtmf: (listener) => void listeners.dtmf.push(listener),
      onHangup: (listener) => void listeners.hangup.push(listener),
      sendAudio: (frame) => rtp.sendAudio(frame),
      clearAudio: () => rtp.clearAudio(),
      queuedFrames: () => rtp.queuedFrames(),
      hangup: (reason) => hangupCall(call, reason ?? "Normal call clearing", false),
      media: rtp.stats,
    };
    tx.call = call;
    calls.set(`${callId}|${localTag}`, call);
    if (options.ringing ?? true) respond(tx, buildResponse(request, 180, { toTag: localTag, source }));

    const user = requestUri?.user;
    const target: SipCallTarget = {
      agentAccountId: user && /^\d{1,15}$/.test(user) ? Number(user) : null,
      user,
      requestUri: request.uri,
      remote: { transport: source.transport, address: source.address, port: source.port },
    };
    let decision: SipCallDecision;
    try {
      decision = await options.onCall(call.leg, target);
    } catch (error) {
      log?.warn({ err: error, callId }, "the SIP call handler failed");
      decision = { status: 500 };
    }
    if (tx.cancelled || call.state === "ended") return;
    if (decision) {
      respond(tx, buildResponse(request, decision.status, { toTag: localTag, source }));
      endCall(call, false, `refused ${decision.status}`);
      return;
    }
    answer(call, request, offer);
  }

  function contactHeader(call: Call): string {
    const transport = call.source.transport === "tcp" ? ";transport=tcp" : "";
    const host = net.isIP(call.localHost) === 6 ? `[${call.localHost}]` : call.localHost;
    return `<sip:switchboard@${host}:${port}${transport}>`;
  }

  function timerHeaders(call: Call, request: SipRequest): SipHeader[] {
    const headers: SipHeader[] = [
      ["Contact", contactHeader(call)],
      ["Allow", ALLOW],
      ["Supported", "timer"],
    ];
    const timer = call.sessionTimer;
    if (timer) {
      headers.push(["Session-Expires", `${timer.interval};refresher=${timer.refresher}`]);
      if (timer.refresher === "uac" && hasOption(request, "Supported", "timer"))
        headers.push(["Require", "timer"]);
    }
    return headers;
  }

  function applyAudio(call: Call, audio: NegotiatedAudio) {
    call.audio = audio;
    call.info.narrowband = audio.codec !== "L16";
    call.rtp.apply(audio);
  }

  /** Our SDP for the call now: an answer to `offer`, or (delayed offer) our own offer. */
  function localSdp(call: Call, offer: NegotiatedAudio | null): string {
    const build = () =>
      offer ? buildAnswer(offer, call.sdpSession) : buildOffer(call.sdpSession, call.audio?.direction);
    let draft = build();
    // RFC 3264 §8: the version changes only when the description does.
    if (call.lastSdp && stripOrigin(draft) !== stripOrigin(call.lastSdp)) {
      call.sdpSession.version++;
      draft = build();
    }
    call.lastSdp = draft;
    return draft;
  }

  function answer(call: Call, request: SipRequest, offer: NegotiatedAudio | null) {
    const body = localSdp(call, offer);
    const response = buildResponse(request, 200, {
      toTag: call.localTag,
      source: call.source,
      headers: timerHeaders(call, request),
      body,
    });
    call.state = "answered";
    if (offer) applyAudio(call, offer);
    respond(call.inviteTx, response);
    send2xxUntilAcked(call, response, offer === null);
    startSessionTimer(call);
    log?.info(
      {
        callId: call.callId,
        codec: offer?.codec ?? "delayed offer",
        remote: `${call.source.address}:${call.source.port}`,
      },
      "SIP call answered",
    );
  }

  function send2xxUntilAcked(call: Call, response: SipResponse, offerInAnswer: boolean) {
    const pending = { response, timers: [] as NodeJS.Timeout[], offerInAnswer };
    call.pending2xx = pending;
    if (call.source.transport === "udp") {
      let interval = t1;
      const resend = () => {
        if (call.pending2xx !== pending) return;
        transmit(response, call.source);
        interval = Math.min(interval * 2, t2);
        pending.timers.push(later(interval, resend));
      };
      pending.timers.push(later(interval, resend));
    }
    pending.timers.push(
      later(64 * t1, () => {
        if (call.pending2xx !== pending) return;
        clearTimers(pending.timers);
        call.pending2xx = null;
        log?.info({ callId: call.callId }, "SIP 2xx never acknowledged: ending the call");
        call.state = "confirmed";
        hangupCall(call, "No ACK", true);
      }),
    );
  }

  // ---------------------------------------------------------------- in-dialog requests

  function inDialog(request: SipRequest, source: Source, toTag: string) {
    const call = calls.get(`${getHeader(request, "Call-ID")}|${toTag}`);
    if (!call || call.state === "ended") {
      reply(request, source, 481);
      return;
    }
    const cseq = parseCSeq(getHeader(request, "CSeq") ?? "");
    if (!cseq || cseq.seq <= call.remoteCSeq) {
      reply(request, source, 500, { headers: [["Retry-After", "1"]] });
      return;
    }
    call.remoteCSeq = cseq.seq;
    const contact = getHeaders(request, "Contact")[0];
    switch (request.method) {
      case "BYE":
        reply(request, source, 200);
        if (call.state === "early") {
          respond(
            call.inviteTx,
            buildResponse(call.inviteTx.request, 487, { toTag: call.localTag, source: call.inviteTx.source }),
          );
        }
        endCall(call, true, "remote BYE");
        return;
      case "INVITE":
      case "UPDATE": {
        if (call.state === "early" && request.method === "INVITE") {
          reply(request, source, 491);
          return;
        }
        if (call.pending2xx || call.refreshing) {
          // An offer of ours (or theirs) is still open: glare (RFC 3261 §14.2).
          reply(request, source, request.method === "INVITE" && call.pending2xx ? 500 : 491, {
            headers: [["Retry-After", "1"]],
          });
          return;
        }
        if (contact) call.remoteTarget = addressUri(contact);
        onReoffer(call, request, source);
        return;
      }
      case "INFO": {
        const contentType = getHeader(request, "Content-Type") ?? "";
        if (request.body.length === 0) {
          reply(request, source, 200);
          return;
        }
        const digit = dtmfFromInfo(contentType, request.body.toString("utf8"));
        if (digit === null) {
          reply(request, source, 415, { headers: [["Accept", "application/dtmf-relay, application/dtmf"]] });
          return;
        }
        reply(request, source, 200);
        for (const listener of call.listeners.dtmf) listener(digit);
        return;
      }
      case "OPTIONS":
        reply(request, source, 200, {
          headers: [
            ["Allow", ALLOW],
            ["Accept", "application/sdp"],
            ["Supported", "timer"],
          ],
        });
        return;
      default:
        reply(request, source, KNOWN.has(request.method) ? 405 : 501, { headers: [["Allow", ALLOW]] });
    }
  }

  /** A re-INVITE or UPDATE: hold/resume/codec change, and a session refresh either way. */
  function onReoffer(call: Call, request: SipRequest, source: Source) {
    const tx = openTransaction(request, source);
    let offer: NegotiatedAudio | null = null;
    if (request.body.length) {
      const type = (getHeader(request, "Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
      if (type !== "application/sdp") {
        respond(tx, buildResponse(request, 415, { source, headers: [["Accept", "application/sdp"]] }));
        return;
      }
      const result = negotiateOffer(request.body.toString("utf8"));
      if (!result.ok) {
        // The call goes on as it was (RFC 3261 §14.2).
        respond(
          tx,
          buildResponse(request, result.status, {
            source,
            headers: [["Warning", `305 ${userAgent} "${result.reason}"`]],
          }),
        );
        return;
      }
      offer = result.audio;
    }
    const session = sessionTimerFor(request);
    if (!session.ok) {
      respond(tx, buildResponse(request, 422, { source, headers: [["Min-SE", String(minSE)]] }));
      return;
    }
    const previous = call.sessionTimer;
    if (previous?.timer) {
      clearTimeout(previous.timer);
      lingering.delete(previous.timer);
      previous.timer = null;
    }
    if (session.timer) call.sessionTimer = session.timer;
    const isInvite = request.method === "INVITE";
    // An UPDATE without SDP is a pure refresh; a re-INVITE without SDP asks for our offer (answer in ACK).
    const body = offer ? localSdp(call, offer) : isInvite ? localSdp(call, null) : undefined;
    const response = buildResponse(request, 200, { source, headers: timerHeaders(call, request), body });
    if (offer) {
      applyAudio(call, offer);
      log?.info(
        { callId: call.callId, direction: offer.direction, codec: offer.codec },
        "SIP session modified",
      );
    }
    respond(tx, response);
    if (isInvite) send2xxUntilAcked(call, response, offer === null);
    startSessionTimer(call);
  }

  // ---------------------------------------------------------------- session timers

  function startSessionTimer(call: Call) {
    const timer = call.sessionTimer;
    if (!timer) return;
    if (timer.timer) {
      clearTimeout(timer.timer);
      lingering.delete(timer.timer);
    }
    if (timer.refresher === "uac") {
      // RFC 4028 §10: without a refresh, BYE at interval − min(32 s, interval / 3).
      const wait = (timer.interval - Math.min(32, timer.interval / 3)) * 1000;
      timer.timer = later(wait, () => {
        log?.info({ callId: call.callId }, "SIP session expired without a refresh");
        hangupCall(call, "Session timer expired", true);
      });
    } else {
      timer.timer = later((timer.interval / 2) * 1000, () => void refreshSession(call));
    }
  }

  async function refreshSession(call: Call) {
    if (call.state !== "confirmed" && call.state !== "answered") return;
    call.refreshing = true;
    const method = call.supportsUpdate ? "UPDATE" : "INVITE";
    const timer = call.sessionTimer;
    const headers: SipHeader[] = [
      ["Contact", contactHeader(call)],
      ["Supported", "timer"],
      ["Allow", ALLOW],
    ];
    if (timer)
      headers.push(["Session-Expires", `${timer.interval};refresher=uas`], ["Min-SE", String(minSE)]);
    // A refresh offers the session unchanged (same SDP, same version: RFC 3264 §8).
    const body = method === "INVITE" ? call.lastSdp : undefined;
    const response = await sendRequest(call, method, { headers, body });
    call.refreshing = false;
    if ((call.state as Call["state"]) === "ended") return;
    if (!response || response.status === 408 || response.status === 481) {
      hangupCall(call, "Session refresh failed", true);
      return;
    }
    if (response.status >= 200 && response.status < 300 && response.body.length) {
      const result = readAnswer(response.body.toString("utf8"));
      if (result.ok) applyAudio(call, result.audio);
    }
    const granted = deltaSeconds(getHeader(response, "Session-Expires"));
    if (timer && granted) timer.interval = granted;
    startSessionTimer(call);
  }

  // ---------------------------------------------------------------- requests we send

  async function destinationOf(call: Call): Promise<Source | null> {
    const next = call.routeSet[0] ? addressUri(call.routeSet[0]) : call.remoteTarget;
    const uri = parseSipUri(next);
    if (!uri) return null;
    const tcp = uri.params.transport?.toLowerCase() === "tcp" || call.source.transport === "tcp";
    let address = uri.host;
    if (!net.isIP(address)) {
      try {
        address = (await lookup(address)).address;
      } catch {
        return null;
      }
    }
    const dest: Source = { transport: tcp ? "tcp" : "udp", address, port: uri.port ?? 5060 };
    if (tcp && call.source.socket && !call.source.socket.destroyed) dest.socket = call.source.socket;
    return dest;
  }

  function sendRequest(
    call: Call,
    method: string,
    extra: { headers?: SipHeader[]; body?: string } = {},
  ): Promise<SipResponse | null> {
    return new Promise((resolve) => {
      void destinationOf(call).then((dest) => {
        if (!dest) {
          resolve(null);
          return;
        }
        const branch = `z9hG4bK${randomToken()}`;
        call.localCSeq++;
        const host = net.isIP(call.localHost) === 6 ? `[${call.localHost}]` : call.localHost;
        const headers: SipHeader[] = [
          ["Via", `SIP/2.0/${dest.transport.toUpperCase()} ${host}:${port};branch=${branch};rport`],
          ["Max-Forwards", "70"],
          ["From", call.localAddress],
          ["To", call.remoteAddress],
          ["Call-ID", call.callId],
          ["CSeq", `${call.localCSeq} ${method}`],
          ...call.routeSet.map((route): SipHeader => ["Route", route]),
          ["User-Agent", userAgent],
          ...(extra.headers ?? []),
        ];
        if (extra.body !== undefined) headers.push(["Content-Type", "application/sdp"]);
        const request: SipRequest = {
          kind: "request",
          method,
          uri: call.remoteTarget,
          headers,
          body: Buffer.from(extra.body ?? "", "utf8"),
        };
        const tx: ClientTransaction = {
          branch,
          method,
          timers: [],
          resolve: (response) => {
            clearTimers(tx.timers);
            clientTx.delete(branch);
            if (response && method === "INVITE" && response.status >= 200) ack(request, response, dest);
            resolve(response);
          },
        };
        clientTx.set(branch, tx);
        transmit(request, dest);
        if (dest.transport === "udp") {
          let interval = t1;
          const resend = () => {
            transmit(request, dest);
            interval = method === "INVITE" ? interval * 2 : Math.min(interval * 2, t2);
            tx.timers.push(later(interval, resend));
          };
          tx.timers.push(later(interval, resend));
        }
        tx.timers.push(later(64 * t1, () => tx.resolve(null)));
      });
    });
  }

  function ack(invite: SipRequest, response: SipResponse, dest: Source) {
    const cseq = parseCSeq(getHeader(invite, "CSeq") ?? "");
    const is2xx = response.status < 300;
    const headers: SipHeader[] = invite.headers
      .filter(([name]) => ["Via", "Max-Forwards", "From", "Call-ID", "Route"].includes(name))
      .map(([name, value]): SipHeader => {
        // A 2xx's ACK is a new transaction (new branch); a non-2xx's belongs to the INVITE's.
        if (name === "Via" && is2xx)
          return [name, value.replace(/branch=[^;]+/, `branch=z9hG4bK${randomToken()}`)];
        return [name, value];
      });
    headers.push(["To", getHeader(response, "To") ?? ""], ["CSeq", `${cseq?.seq ?? 0} ACK`]);
    const message: SipRequest = {
      kind: "request",
      method: "ACK",
      uri: invite.uri,
      headers,
      body: Buffer.alloc(0),
    };
    transmit(message, dest);
    const branch = parseVia(getHeaders(invite, "Via")[0] ?? "")?.params.branch;
    if (branch && is2xx) {
      ackCache.set(branch, () => transmit(message, dest));
      later(64 * t1, () => ackCache.delete(branch));
    }
  }

  function onResponse(response: SipResponse) {
    const via = parseVia(getHeaders(response, "Via")[0] ?? "");
    const branch = via?.params.branch;
    const tx = branch ? clientTx.get(branch) : undefined;
    if (!tx) {
      // A retransmitted 2xx of our re-INVITE: our ACK got lost, send it again.
      if (branch && response.status < 300) ackCache.get(branch)?.();
      return;
    }
    const cseq = parseCSeq(getHeader(response, "CSeq") ?? "");
    if (cseq?.method !== tx.method) return;
    if (response.status < 200) {
      // It arrived: stop resending (the far end resends its final answer if ours got lost) and wait.
      clearTimers(tx.timers);
      tx.timers.push(later(64 * t1, () => tx.resolve(null)));
      return;
    }
    tx.resolve(response);
  }

  // ---------------------------------------------------------------- ending calls

  function sendBye(call: Call, reason: string) {
    call.pendingBye = null;
    void sendRequest(call, "BYE", {
      headers: [["Reason", `SIP;cause=200;text="${reason.replace(/"/g, "'")}"`]],
    }).then((response) =>
      log?.debug({ callId: call.callId, status: response?.status ?? "timeout" }, "SIP BYE answered"),
    );
  }

  /** Ends a call from our side: refuses it before the answer, otherwise BYE (after the ACK). */
  function hangupCall(call: Call, reason: string, notify: boolean) {
    if (call.state === "ended") return;
    if (call.state === "early") {
      if (!call.inviteTx.lastResponse || call.inviteTx.lastResponse.status < 200) {
        respond(
          call.inviteTx,
          buildResponse(call.inviteTx.request, 480, { toTag: call.localTag, source: call.inviteTx.source }),
        );
      }
    } else if (call.pending2xx && call.state === "answered") {
      // RFC 3261 §15: no BYE before the 2xx is acknowledged (or its transaction times out).
      call.pendingBye = reason;
      later(64 * t1 + 100, () => {
        if (call.pendingBye !== null) sendBye(call, reason);
      });
      endCall(call, notify, reason, true);
      return;
    } else sendBye(call, reason);
    endCall(call, notify, reason);
  }

  function endCall(call: Call, notify: boolean, reason: string, keepForAck = false) {
    if (call.state === "ended") return;
    call.state = "ended";
    const key = `${call.callId}|${call.localTag}`;
    if (keepForAck) {
      // Stay findable (and keep resending the 2xx) until the ACK that lets the deferred BYE go.
      later(64 * t1 + 200, () => {
        if (call.pending2xx) clearTimers(call.pending2xx.timers);
        calls.delete(key);
      });
    } else {
      if (call.pending2xx) clearTimers(call.pending2xx.timers);
      calls.delete(key);
    }
    if (call.sessionTimer?.timer) clearTimeout(call.sessionTimer.timer);
    call.rtp.close();
    const stats = call.rtp.stats;
    log?.info(
      {
        callId: call.callId,
        reason,
        sent: stats.packetsSent,
        received: stats.packetsReceived,
        lost: stats.lost,
        lateP99Ms: stats.lateness.quantile(0.99),
      },
      "SIP call ended",
    );
    if (notify) {
      const listeners = call.listeners.hangup.splice(0);
      for (const listener of listeners) {
        try {
          listener();
        } catch (error) {
          log?.warn({ err: error }, "a SIP hangup listener failed");
        }
      }
    }
  }

  return {
    port,
    host: options.host,
    pacer,
    activeCalls: () => [...calls.values()].filter((call) => call.state !== "ended").length,
    async close() {
      if (closing) return;
      // Hang up every call (BYE, and tell the pipeline), give the BYEs a moment to leave, then close.
      for (const call of [...calls.values()]) {
        if (call.state === "ended") continue;
        if (call.state === "early") hangupCall(call, "Server shutting down", true);
        else {
          sendBye(call, "Server shutting down");
          endCall(call, true, "server shutting down");
        }
      }
      closing = true;
      await Promise.race([Promise.all([...pendingSends]), new Promise((r) => setTimeout(r, 200))]);
      for (const tx of clientTx.values()) tx.resolve(null);
      for (const timer of lingering) clearTimeout(timer);
      lingering.clear();
      serverTx.clear();
      calls.clear();
      pacer.stop();
      for (const socket of connections.values()) socket.destroy();
      connections.clear();
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (tcpServer) await new Promise<void>((resolve) => tcpServer?.close(() => resolve()));
    },
  };
}

function stripOrigin(sdp: string): string {
  return sdp.replace(/^o=.*$/m, "");
}
