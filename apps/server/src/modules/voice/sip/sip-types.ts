/**
 * The SIP server's types: the public ones (re-exported by sip-server.ts), the state of transactions and
 * calls, and the context object the server's parts share (sip-context.ts builds it).
 */
import type net from "node:net";
import type { CallLeg, CallLegInfo } from "../call-leg.ts";
import type { MediaThread } from "./media-thread-client.ts";
import type { RtpSession, RtpStats } from "./rtp-session.ts";
import type { LocalSession, NegotiatedAudio } from "./sdp.ts";
import type { SipMessage, SipRequest, SipResponse } from "./sip-message.ts";
import type { SipTimers } from "./sip-timers.ts";

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
  /** The media thread calls' RTP runs on (default: the process's shared one). */
  media?: MediaThread;
  silenceFill?: boolean;
  /** Our Min-SE in seconds (RFC 4028 says at least 90). */
  minSessionExpires?: number;
  /** Session interval we propose when the caller supports timers but named none (seconds). */
  sessionExpires?: number;
  /** RFC 3261 T1 in ms (tests shorten it). */
  t1?: number;
  userAgent?: string;
  /** Flood limits (source-guard.ts): false drops a message from this address before it is parsed. */
  admit?: (address: string) => boolean;
  /**
   * Screens a new INVITE before any work (no RTP port, no 100 Trying): a decision refuses it at once,
   * statelessly (a refused source's retransmissions are answered again, never resent by us).
   */
  screen?: (request: SipRequest, source: SipRemote) => SipCallDecision;
  /** Sees every message received and sent (SIP captures). */
  tap?: (direction: "in" | "out", message: SipMessage, remote: SipRemote) => void;
  /**
   * Hands a received message to another process (the API process relays calls to its voice workers):
   * true when it took the message, which this server then neither taps nor handles.
   */
  relay?: (message: SipMessage, source: Source) => boolean;
  /**
   * Where messages come from and go (default: UDP and TCP sockets on host:port). A voice worker's SIP
   * comes and goes through the API process instead (workers/worker-sip.ts).
   */
  transport?: (receive: (message: SipMessage, source: Source) => void) => Promise<SipTransport>;
};

export type SipServer = {
  readonly port: number;
  readonly host: string;
  /** Calls in progress. */
  activeCalls(): number;
  /** The media thread's pacer (its skipped ticks): calls' RTP is paced there, off this event loop. */
  readonly pacer: { readonly skipped: number };
  /**
   * Sends a request of our own (REGISTER, OPTIONS ...) in a client transaction from our SIP port; resolves
   * with its final response, or null when none came in time. The request's top Via carries the branch.
   */
  request(message: SipRequest, dest: SipRemote): Promise<SipResponse | null>;
  /** Sends a message as it is from our SIP port (what a voice worker sends through the API process). */
  transmit(message: SipMessage, to: Source): void;
  close(): Promise<void>;
};

/** Where a message came from (or goes to); over TCP, the connection it arrived on. */
export type Source = SipRemote & { socket?: net.Socket };

/**
 * Where SIP messages come from and go: UDP and TCP sockets (sip-transport.ts), or a voice worker's relay
 * through the API process (workers/worker-sip.ts).
 */
export type SipTransport = {
  readonly port: number;
  /** Sends a message: over the connection it belongs to (TCP), or a datagram. */
  transmit(message: SipMessage, to: Source): void;
  /** True once close has begun: nothing more is received or accepted. */
  readonly closing: boolean;
  stopReceiving(): void;
  /** Waits (at most 200 ms) for datagrams still being sent. */
  flush(): Promise<void>;
  /** Closes every connection and both sockets. */
  close(): Promise<void>;
};

export type ServerTransaction = {
  key: string;
  request: SipRequest;
  source: Source;
  lastResponse: SipResponse | null;
  timers: NodeJS.Timeout[];
  cancelled: boolean;
  call: Call | null;
};

export type ClientTransaction = {
  branch: string;
  method: string;
  resolve: (response: SipResponse | null) => void;
  timers: NodeJS.Timeout[];
};

export type SessionTimer = { interval: number; refresher: "uac" | "uas"; timer: NodeJS.Timeout | null };

/** One call (its dialog, media and leg). */
export type Call = {
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
    played: Array<(f: Int16Array, at: number) => void>;
    answered: Array<() => void>;
  };
  inviteTx: ServerTransaction;
  /** A 2xx we retransmit until its ACK (initial INVITE or re-INVITE). */
  pending2xx: { response: SipResponse; timers: NodeJS.Timeout[]; offerInAnswer: boolean } | null;
  pendingBye: string | null;
  sessionTimer: SessionTimer | null;
  supportsUpdate: boolean;
  /** The far end listed REFER in its INVITE's Allow: a cold transfer may be asked of it (refer.ts). */
  supportsRefer: boolean;
  /** A REFER of ours waiting for its NOTIFYs: each is told their sipfrag status, and the end of the call. */
  referWatchers: Array<(status: number | null, ended: boolean) => void>;
  refreshing: boolean;
};

/** What every part of the SIP server shares: settings, the way out, timers, and the tables of state. */
export type SipContext = {
  options: SipServerOptions;
  log: SipLogger | undefined;
  /** The port we listen on (UDP and TCP). */
  port: number;
  t1: number;
  t2: number;
  /** Our Min-SE (seconds). */
  minSE: number;
  /** The session interval we propose (seconds). */
  defaultSE: number;
  userAgent: string;
  /** Where calls' RTP sockets live and their audio is paced. */
  media: MediaThread;
  transmit(message: SipMessage, to: Source): void;
  timers: SipTimers;
  serverTx: Map<string, ServerTransaction>;
  clientTx: Map<string, ClientTransaction>;
  /** Calls by `<Call-ID>|<our tag>`. */
  calls: Map<string, Call>;
  /** Resends our ACK of a 2xx by the INVITE's branch (the 2xx came again: our ACK got lost). */
  ackCache: Map<string, () => void>;
};

export const ALLOW = "INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, UPDATE, NOTIFY";
/** Methods we know and refuse with 405 (everything else unknown is 501). */
export const KNOWN = new Set(["REGISTER", "SUBSCRIBE", "PUBLISH", "MESSAGE", "REFER", "PRACK"]);
export const SUPPORTED = new Set(["timer"]);
