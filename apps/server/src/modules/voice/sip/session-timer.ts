/**
 * Session timers (RFC 4028): the interval and refresher agreed from a request (422 below our Min-SE), the
 * headers of our 2xx, and the timer itself: BYE when the caller (refresher uac) stops refreshing, our own
 * refresh (UPDATE when allowed, else re-INVITE) at half the interval when we are the refresher.
 */
import { hangupCall } from "./call-ending.ts";
import { applyAudio } from "./call-media.ts";
import { contactHeader, sendRequest } from "./dialog-requests.ts";
import { readAnswer } from "./sdp.ts";
import {
  getHeader,
  getHeaders,
  headerParams,
  type SipHeader,
  type SipMessage,
  type SipRequest,
} from "./sip-message.ts";
import { ALLOW, type Call, type SessionTimer, type SipContext } from "./sip-types.ts";

function deltaSeconds(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^\s*(\d{1,10})/.exec(value);
  return match ? Number(match[1]) : null;
}

function hasOption(message: SipMessage, header: string, option: string): boolean {
  return getHeaders(message, header).some((v) => v.split(",").some((o) => o.trim().toLowerCase() === option));
}

/** The session timer a request asks for: none, one, or too short (answer 422 with our Min-SE). */
export function sessionTimerFor(
  ctx: SipContext,
  request: SipRequest,
): { ok: true; timer: SessionTimer | null } | { ok: false } {
  const { minSE, defaultSE } = ctx;
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

/** The headers of our 2xx to an INVITE or UPDATE: Contact, Allow, Supported and the session timer. */
export function timerHeaders(ctx: SipContext, call: Call, request: SipRequest): SipHeader[] {
  const headers: SipHeader[] = [
    ["Contact", contactHeader(ctx, call)],
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

/** (Re)starts the call's session timer after the session was set up or refreshed. */
export function startSessionTimer(ctx: SipContext, call: Call) {
  const timer = call.sessionTimer;
  if (!timer) return;
  if (timer.timer) ctx.timers.cancel(timer.timer);
  if (timer.refresher === "uac") {
    // RFC 4028 §10: without a refresh, BYE at interval − min(32 s, interval / 3).
    const wait = (timer.interval - Math.min(32, timer.interval / 3)) * 1000;
    timer.timer = ctx.timers.later(wait, () => {
      ctx.log?.info({ callId: call.callId }, "SIP session expired without a refresh");
      hangupCall(ctx, call, "Session timer expired", true);
    });
  } else {
    timer.timer = ctx.timers.later((timer.interval / 2) * 1000, () => {
      refreshSession(ctx, call).catch((error: unknown) => {
        ctx.log?.warn({ err: error, callId: call.callId }, "SIP session refresh failed");
        hangupCall(ctx, call, "Session refresh failed", true);
      });
    });
  }
}

async function refreshSession(ctx: SipContext, call: Call) {
  if (call.state !== "confirmed" && call.state !== "answered") return;
  call.refreshing = true;
  const method = call.supportsUpdate ? "UPDATE" : "INVITE";
  const timer = call.sessionTimer;
  const headers: SipHeader[] = [
    ["Contact", contactHeader(ctx, call)],
    ["Supported", "timer"],
    ["Allow", ALLOW],
  ];
  if (timer)
    headers.push(["Session-Expires", `${timer.interval};refresher=uas`], ["Min-SE", String(ctx.minSE)]);
  // A refresh offers the session unchanged (same SDP, same version: RFC 3264 §8).
  const body = method === "INVITE" ? call.lastSdp : undefined;
  const response = await sendRequest(ctx, call, method, { headers, body });
  call.refreshing = false;
  if ((call.state as Call["state"]) === "ended") return;
  if (!response || response.status === 408 || response.status === 481) {
    hangupCall(ctx, call, "Session refresh failed", true);
    return;
  }
  if (response.status >= 200 && response.status < 300 && response.body.length) {
    const result = readAnswer(response.body.toString("utf8"));
    if (result.ok) applyAudio(call, result.audio);
  }
  const granted = deltaSeconds(getHeader(response, "Session-Expires"));
  if (timer && granted) timer.interval = granted;
  startSessionTimer(ctx, call);
}
