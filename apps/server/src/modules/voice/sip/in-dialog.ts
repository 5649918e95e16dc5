/**
 * Requests inside a call's dialog: BYE, re-INVITE and UPDATE (hold with a=sendonly/inactive, resume, codec
 * change, session refresh; glare answered 491/500), INFO with DTMF, OPTIONS; 481 for unknown dialogs.
 */
import { endCall } from "./call-ending.ts";
import { applyAudio, localSdp } from "./call-media.ts";
import { send2xxUntilAcked } from "./incoming-call.ts";
import { sipfragStatus } from "./refer.ts";
import { dtmfFromInfo } from "./rtp.ts";
import { type NegotiatedAudio, negotiateOffer } from "./sdp.ts";
import { buildResponse, openTransaction, reply, respond } from "./server-transactions.ts";
import { sessionTimerFor, startSessionTimer, timerHeaders } from "./session-timer.ts";
import { addressUri, getHeader, getHeaders, parseCSeq, type SipRequest } from "./sip-message.ts";
import { ALLOW, type Call, KNOWN, type SipContext, type Source } from "./sip-types.ts";

export function inDialog(ctx: SipContext, request: SipRequest, source: Source, toTag: string) {
  const call = ctx.calls.get(`${getHeader(request, "Call-ID")}|${toTag}`);
  if (!call || call.state === "ended") {
    reply(ctx, request, source, 481);
    return;
  }
  const cseq = parseCSeq(getHeader(request, "CSeq") ?? "");
  if (!cseq || cseq.seq <= call.remoteCSeq) {
    reply(ctx, request, source, 500, { headers: [["Retry-After", "1"]] });
    return;
  }
  call.remoteCSeq = cseq.seq;
  const contact = getHeaders(request, "Contact")[0];
  switch (request.method) {
    case "BYE":
      reply(ctx, request, source, 200);
      if (call.state === "early") {
        respond(
          ctx,
          call.inviteTx,
          buildResponse(ctx, call.inviteTx.request, 487, {
            toTag: call.localTag,
            source: call.inviteTx.source,
          }),
        );
      }
      endCall(ctx, call, true, "remote BYE");
      return;
    case "INVITE":
    case "UPDATE": {
      if (call.state === "early" && request.method === "INVITE") {
        reply(ctx, request, source, 491);
        return;
      }
      if (call.pending2xx || call.refreshing) {
        // An offer of ours (or theirs) is still open: glare (RFC 3261 §14.2).
        reply(ctx, request, source, request.method === "INVITE" && call.pending2xx ? 500 : 491, {
          headers: [["Retry-After", "1"]],
        });
        return;
      }
      if (contact) call.remoteTarget = addressUri(contact);
      onReoffer(ctx, call, request, source);
      return;
    }
    case "INFO": {
      const contentType = getHeader(request, "Content-Type") ?? "";
      if (request.body.length === 0) {
        reply(ctx, request, source, 200);
        return;
      }
      const digit = dtmfFromInfo(contentType, request.body.toString("utf8"));
      if (digit === null) {
        reply(ctx, request, source, 415, {
          headers: [["Accept", "application/dtmf-relay, application/dtmf"]],
        });
        return;
      }
      reply(ctx, request, source, 200);
      for (const listener of call.listeners.dtmf) listener(digit);
      return;
    }
    case "NOTIFY": {
      // How the far end's call for our REFER goes (refer.ts); any other subscription's NOTIFY is refused.
      const event = (getHeader(request, "Event") ?? "").split(";")[0]?.trim().toLowerCase();
      if (event !== "refer" || call.referWatchers.length === 0) {
        reply(ctx, request, source, 481);
        return;
      }
      reply(ctx, request, source, 200);
      const status = sipfragStatus(request);
      for (const watcher of [...call.referWatchers]) watcher(status, false);
      return;
    }
    case "OPTIONS":
      reply(ctx, request, source, 200, {
        headers: [
          ["Allow", ALLOW],
          ["Accept", "application/sdp"],
          ["Supported", "timer"],
        ],
      });
      return;
    default:
      reply(ctx, request, source, KNOWN.has(request.method) ? 405 : 501, { headers: [["Allow", ALLOW]] });
  }
}

/** A re-INVITE or UPDATE: hold/resume/codec change, and a session refresh either way. */
function onReoffer(ctx: SipContext, call: Call, request: SipRequest, source: Source) {
  const tx = openTransaction(ctx, request, source);
  let offer: NegotiatedAudio | null = null;
  if (request.body.length) {
    const type = (getHeader(request, "Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/sdp") {
      respond(
        ctx,
        tx,
        buildResponse(ctx, request, 415, { source, headers: [["Accept", "application/sdp"]] }),
      );
      return;
    }
    const result = negotiateOffer(request.body.toString("utf8"));
    if (!result.ok) {
      // The call goes on as it was (RFC 3261 §14.2).
      respond(
        ctx,
        tx,
        buildResponse(ctx, request, result.status, {
          source,
          headers: [["Warning", `305 ${ctx.userAgent} "${result.reason}"`]],
        }),
      );
      return;
    }
    offer = result.audio;
  }
  const session = sessionTimerFor(ctx, request);
  if (!session.ok) {
    respond(ctx, tx, buildResponse(ctx, request, 422, { source, headers: [["Min-SE", String(ctx.minSE)]] }));
    return;
  }
  const previous = call.sessionTimer;
  if (previous?.timer) {
    ctx.timers.cancel(previous.timer);
    previous.timer = null;
  }
  if (session.timer) call.sessionTimer = session.timer;
  const isInvite = request.method === "INVITE";
  // An UPDATE without SDP is a pure refresh; a re-INVITE without SDP asks for our offer (answer in ACK).
  const body = offer ? localSdp(call, offer) : isInvite ? localSdp(call, null) : undefined;
  const response = buildResponse(ctx, request, 200, {
    source,
    headers: timerHeaders(ctx, call, request),
    body,
  });
  if (offer) {
    applyAudio(call, offer);
    ctx.log?.info(
      { callId: call.callId, direction: offer.direction, codec: offer.codec },
      "SIP session modified",
    );
  }
  respond(ctx, tx, response);
  if (isInvite) send2xxUntilAcked(ctx, call, response, offer === null);
  startSessionTimer(ctx, call);
}
