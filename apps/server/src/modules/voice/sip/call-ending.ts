/** Ending calls: our BYE (deferred until the 2xx is acknowledged), refusing an unanswered call, clean-up. */
import { sendRequest } from "./dialog-requests.ts";
import { buildResponse, respond } from "./server-transactions.ts";
import type { Call, SipContext } from "./sip-types.ts";

export function sendBye(ctx: SipContext, call: Call, reason: string) {
  call.pendingBye = null;
  void sendRequest(ctx, call, "BYE", {
    headers: [["Reason", `SIP;cause=200;text="${reason.replace(/"/g, "'")}"`]],
  }).then((response) =>
    ctx.log?.debug({ callId: call.callId, status: response?.status ?? "timeout" }, "SIP BYE answered"),
  );
}

/** Ends a call from our side: refuses it before the answer, otherwise BYE (after the ACK). */
export function hangupCall(ctx: SipContext, call: Call, reason: string, notify: boolean) {
  if (call.state === "ended") return;
  if (call.state === "early") {
    if (!call.inviteTx.lastResponse || call.inviteTx.lastResponse.status < 200) {
      respond(
        ctx,
        call.inviteTx,
        buildResponse(ctx, call.inviteTx.request, 480, {
          toTag: call.localTag,
          source: call.inviteTx.source,
        }),
      );
    }
  } else if (call.pending2xx && call.state === "answered") {
    // RFC 3261 §15: no BYE before the 2xx is acknowledged (or its transaction times out).
    call.pendingBye = reason;
    ctx.timers.later(64 * ctx.t1 + 100, () => {
      if (call.pendingBye !== null) sendBye(ctx, call, reason);
    });
    endCall(ctx, call, notify, reason, true);
    return;
  } else sendBye(ctx, call, reason);
  endCall(ctx, call, notify, reason);
}

/** Marks the call ended, closes its media and (when `notify`) tells the pipeline it hung up. */
export function endCall(ctx: SipContext, call: Call, notify: boolean, reason: string, keepForAck = false) {
  const { log, timers } = ctx;
  if (call.state === "ended") return;
  call.state = "ended";
  const key = `${call.callId}|${call.localTag}`;
  if (keepForAck) {
    // Stay findable (and keep resending the 2xx) until the ACK that lets the deferred BYE go.
    timers.later(64 * ctx.t1 + 200, () => {
      if (call.pending2xx) timers.clear(call.pending2xx.timers);
      ctx.calls.delete(key);
    });
  } else {
    if (call.pending2xx) timers.clear(call.pending2xx.timers);
    ctx.calls.delete(key);
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
  // A REFER of ours still waiting: the far end left the call (BYE) or we did.
  for (const watcher of call.referWatchers.splice(0)) watcher(null, true);
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
