/**
 * A new call: the INVITE (100 Trying, a CallLeg and its RTP session, optional 180 Ringing), the decision of
 * `onCall`, the 200 OK with our SDP answer (or our offer, answered in the ACK), and any 2xx of ours resent
 * until its ACK (initial INVITE or re-INVITE).
 */
import { randomInt } from "node:crypto";
import net from "node:net";
import type { CallLegInfo } from "../call-leg.ts";
import { endCall, hangupCall } from "./call-ending.ts";
import { applyAudio, localSdp } from "./call-media.ts";
import { referCall } from "./refer.ts";
import type { RtpSession } from "./rtp-session.ts";
import { type NegotiatedAudio, negotiateOffer } from "./sdp.ts";
import { buildResponse, openTransaction, respond } from "./server-transactions.ts";
import { sessionTimerFor, startSessionTimer, timerHeaders } from "./session-timer.ts";
import { randomToken } from "./sip-ids.ts";
import {
  addressUri,
  getHeader,
  getHeaders,
  parseCSeq,
  parseSipUri,
  type SipRequest,
  type SipResponse,
} from "./sip-message.ts";
import type { Call, SipCallDecision, SipCallLeg, SipCallTarget, SipContext, Source } from "./sip-types.ts";

export async function onInvite(ctx: SipContext, request: SipRequest, source: Source) {
  const { options, log, minSE, userAgent } = ctx;
  const screened = options.screen?.(request, source);
  if (screened) {
    // Refused before any work, statelessly: no transaction kept, no resends (RFC 3261 §8.2.7).
    ctx.transmit(buildResponse(ctx, request, screened.status, { toTag: randomToken(), source }), source);
    return;
  }
  const tx = openTransaction(ctx, request, source);
  const callId = getHeader(request, "Call-ID") ?? "";
  const localTag = randomToken();
  const session = sessionTimerFor(ctx, request);
  if (!session.ok) {
    respond(
      ctx,
      tx,
      buildResponse(ctx, request, 422, { toTag: localTag, source, headers: [["Min-SE", String(minSE)]] }),
    );
    return;
  }
  const contentType = (getHeader(request, "Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
  let offer: NegotiatedAudio | null = null;
  if (request.body.length) {
    if (contentType !== "application/sdp") {
      respond(
        ctx,
        tx,
        buildResponse(ctx, request, 415, {
          toTag: localTag,
          source,
          headers: [["Accept", "application/sdp"]],
        }),
      );
      return;
    }
    const result = negotiateOffer(request.body.toString("utf8"));
    if (!result.ok) {
      respond(
        ctx,
        tx,
        buildResponse(ctx, request, result.status, {
          toTag: localTag,
          source,
          headers: [["Warning", `305 ${userAgent} "${result.reason}"`]],
        }),
      );
      return;
    }
    offer = result.audio;
  }
  respond(ctx, tx, buildResponse(ctx, request, 100, { source }));

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
  const listeners: Call["listeners"] = { audio: [], dtmf: [], hangup: [], played: [], answered: [] };
  const opened: { call: Call | null } = { call: null };
  try {
    rtp = await ctx.media.createSession({
      host: options.host,
      silenceFill: options.silenceFill,
      onFailed: () => {
        if (opened.call) hangupCall(ctx, opened.call, "Media failed", true);
      },
      onAudio: (frame) => {
        for (const listener of listeners.audio) listener(frame);
      },
      onDtmf: (digit) => {
        for (const listener of listeners.dtmf) listener(digit);
      },
      onPlayed: (frame, at) => {
        for (const listener of listeners.played) listener(frame, at);
      },
    });
  } catch (error) {
    log?.warn({ err: error }, "could not open an RTP socket");
    respond(ctx, tx, buildResponse(ctx, request, 503, { toTag: localTag, source }));
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
    supportsRefer: getHeaders(request, "Allow").some((v) => /\bREFER\b/i.test(v)),
    referWatchers: [],
    refreshing: false,
  };
  call.leg = {
    info,
    onAudio: (listener) => void listeners.audio.push(listener),
    onDtmf: (listener) => void listeners.dtmf.push(listener),
    onHangup: (listener) => void listeners.hangup.push(listener),
    onPlayed: (listener) => void listeners.played.push(listener),
    onAnswered: (listener) => void listeners.answered.push(listener),
    sendAudio: (frame) => rtp.sendAudio(frame),
    clearAudio: () => rtp.clearAudio(),
    queuedFrames: () => rtp.queuedFrames(),
    hangup: (reason) => hangupCall(ctx, call, reason ?? "Normal call clearing", false),
    sendDtmf: async (digits) => {
      if (!rtp.sendDigits(digits)) return false;
      while (rtp.queuedDigits() > 0 && call.state !== "ended") await new Promise((r) => setTimeout(r, 40));
      return call.state !== "ended";
    },
    handOver: (target, handOverOptions) => referCall(ctx, call, target, handOverOptions),
    canHandOver: () => call.supportsRefer,
    media: rtp.stats,
  };
  tx.call = call;
  opened.call = call;
  ctx.calls.set(`${callId}|${localTag}`, call);
  if (options.ringing ?? true)
    respond(ctx, tx, buildResponse(ctx, request, 180, { toTag: localTag, source }));

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
    respond(ctx, tx, buildResponse(ctx, request, decision.status, { toTag: localTag, source }));
    endCall(ctx, call, false, `refused ${decision.status}`);
    return;
  }
  try {
    answer(ctx, call, request, offer);
  } catch (error) {
    // The call cannot be answered after all: it ends (the pipeline is told), the server goes on.
    log?.warn({ err: error, callId }, "a SIP call could not be answered");
    hangupCall(ctx, call, "Server error", true);
  }
}

function answer(ctx: SipContext, call: Call, request: SipRequest, offer: NegotiatedAudio | null) {
  const body = localSdp(call, offer);
  const response = buildResponse(ctx, request, 200, {
    toTag: call.localTag,
    source: call.source,
    headers: timerHeaders(ctx, call, request),
    body,
  });
  call.state = "answered";
  if (offer) applyAudio(call, offer);
  respond(ctx, call.inviteTx, response);
  for (const listener of call.listeners.answered.splice(0)) listener();
  send2xxUntilAcked(ctx, call, response, offer === null);
  startSessionTimer(ctx, call);
  ctx.log?.info(
    {
      callId: call.callId,
      codec: offer?.codec ?? "delayed offer",
      remote: `${call.source.address}:${call.source.port}`,
    },
    "SIP call answered",
  );
}

/** Resends our 2xx to an INVITE (over UDP) until its ACK; without one in 64·T1, ends the call. */
export function send2xxUntilAcked(
  ctx: SipContext,
  call: Call,
  response: SipResponse,
  offerInAnswer: boolean,
) {
  const { t1, t2, timers } = ctx;
  const pending = { response, timers: [] as NodeJS.Timeout[], offerInAnswer };
  call.pending2xx = pending;
  if (call.source.transport === "udp") {
    let interval = t1;
    const resend = () => {
      if (call.pending2xx !== pending) return;
      ctx.transmit(response, call.source);
      interval = Math.min(interval * 2, t2);
      pending.timers.push(timers.later(interval, resend));
    };
    pending.timers.push(timers.later(interval, resend));
  }
  pending.timers.push(
    timers.later(64 * t1, () => {
      if (call.pending2xx !== pending) return;
      timers.clear(pending.timers);
      call.pending2xx = null;
      ctx.log?.info({ callId: call.callId }, "SIP 2xx never acknowledged: ending the call");
      call.state = "confirmed";
      hangupCall(ctx, call, "No ACK", true);
    }),
  );
}
