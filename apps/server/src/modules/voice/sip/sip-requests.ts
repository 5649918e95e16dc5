/**
 * Requests we receive, before any dialog logic: retransmissions answered from their transaction, ACK (ends
 * a non-2xx's resends, or acknowledges our 2xx), CANCEL (487 for the INVITE), 483/420 checks, then new
 * calls, out-of-dialog OPTIONS and 481/405/501, or the call's dialog (in-dialog.ts).
 */
import { endCall, hangupCall, sendBye } from "./call-ending.ts";
import { applyAudio } from "./call-media.ts";
import { inDialog } from "./in-dialog.ts";
import { onInvite } from "./incoming-call.ts";
import { readAnswer } from "./sdp.ts";
import { buildResponse, reply, respond, txKey } from "./server-transactions.ts";
import { randomToken, tagOf } from "./sip-ids.ts";
import { getHeader, getHeaders, parseCSeq, type SipRequest } from "./sip-message.ts";
import { ALLOW, KNOWN, type SipContext, type Source, SUPPORTED } from "./sip-types.ts";

export function onRequest(ctx: SipContext, request: SipRequest, source: Source) {
  if (request.method === "ACK") {
    onAck(ctx, request);
    return;
  }
  const existing = ctx.serverTx.get(txKey(request));
  if (existing) {
    // A retransmission: answer it as before (or, while an INVITE is still being decided, say Trying).
    if (existing.lastResponse) ctx.transmit(existing.lastResponse, existing.source);
    return;
  }
  if (request.method === "CANCEL") {
    onCancel(ctx, request, source);
    return;
  }
  const maxForwards = getHeader(request, "Max-Forwards");
  if (maxForwards !== undefined && Number(maxForwards) === 0 && request.method !== "OPTIONS") {
    reply(ctx, request, source, 483);
    return;
  }
  const required = getHeaders(request, "Require")
    .flatMap((value) => value.split(","))
    .map((option) => option.trim().toLowerCase())
    .filter((option) => option && !SUPPORTED.has(option));
  if (required.length && request.method !== "CANCEL") {
    reply(ctx, request, source, 420, { headers: [["Unsupported", required.join(", ")]] });
    return;
  }
  const toTag = tagOf(getHeader(request, "To"));
  if (toTag) {
    inDialog(ctx, request, source, toTag);
    return;
  }
  switch (request.method) {
    case "INVITE":
      onInvite(ctx, request, source).catch((error: unknown) =>
        ctx.log?.warn(
          { err: error, callId: getHeader(request, "Call-ID") },
          "a SIP INVITE could not be handled",
        ),
      );
      return;
    case "OPTIONS":
      reply(ctx, request, source, 200, {
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
      reply(ctx, request, source, 481);
      return;
    default:
      reply(ctx, request, source, KNOWN.has(request.method) ? 405 : 501, { headers: [["Allow", ALLOW]] });
  }
}

function onAck(ctx: SipContext, request: SipRequest) {
  const { timers } = ctx;
  // An ACK for a non-2xx final shares the INVITE's branch: it ends that transaction's resends.
  const tx = ctx.serverTx.get(txKey(request));
  if (tx?.lastResponse && tx.lastResponse.status >= 300) {
    timers.clear(tx.timers);
    tx.timers.push(
      timers.later(tx.source.transport === "udp" ? ctx.t2 * 1.25 : 0, () => ctx.serverTx.delete(tx.key)),
    );
    return;
  }
  // An ACK for our 2xx is its own transaction, in the dialog.
  const toTag = tagOf(getHeader(request, "To"));
  const call = toTag ? ctx.calls.get(`${getHeader(request, "Call-ID")}|${toTag}`) : undefined;
  if (!call?.pending2xx) return;
  const cseq = parseCSeq(getHeader(request, "CSeq") ?? "");
  const acked = parseCSeq(getHeader(call.pending2xx.response, "CSeq") ?? "");
  if (!cseq || !acked || cseq.seq !== acked.seq) return;
  const { offerInAnswer } = call.pending2xx;
  timers.clear(call.pending2xx.timers);
  call.pending2xx = null;
  if (offerInAnswer && request.body.length) {
    const result = readAnswer(request.body.toString("utf8"));
    if (result.ok) applyAudio(call, result.audio);
    else {
      ctx.log?.info({ callId: call.callId, reason: result.reason }, "SIP ACK carried an unusable answer");
      hangupCall(ctx, call, "Incompatible media", true);
      return;
    }
  }
  if (call.state === "answered") call.state = "confirmed";
  if (call.pendingBye !== null) sendBye(ctx, call, call.pendingBye);
}

function onCancel(ctx: SipContext, request: SipRequest, source: Source) {
  const inviteKey = txKey({ ...request, method: "INVITE" });
  const invite = ctx.serverTx.get(inviteKey);
  if (!invite) {
    reply(ctx, request, source, 481);
    return;
  }
  reply(ctx, request, source, 200);
  if (invite.lastResponse && invite.lastResponse.status >= 200) return; // too late: already answered
  invite.cancelled = true;
  respond(
    ctx,
    invite,
    buildResponse(ctx, invite.request, 487, {
      toTag: invite.call?.localTag ?? randomToken(),
      source: invite.source,
    }),
  );
  if (invite.call) endCall(ctx, invite.call, true, "cancelled");
}
