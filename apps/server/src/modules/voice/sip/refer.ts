/**
 * A cold transfer by SIP REFER (RFC 3515): we ask the far end (the trunk or PBX that sent the call) to call
 * the destination itself. It answers 202, then tells how its new call went in NOTIFYs with a
 * `message/sipfrag` body ("SIP/2.0 180 Ringing", then the final status); on a final one we hang up our side.
 * Only sent when the far end listed REFER in the Allow header of its INVITE; a refusal (any other final
 * answer than 2xx) lets the pipeline bridge a new leg itself.
 */
import type { HandOver, TransferResult } from "../call-leg.ts";
import { contactHeader, sendRequest } from "./dialog-requests.ts";
import { getHeader, type SipRequest } from "./sip-message.ts";
import type { Call, SipContext } from "./sip-types.ts";

/** The status line of a NOTIFY's sipfrag body (`SIP/2.0 200 OK`), or null. */
export function sipfragStatus(request: SipRequest): number | null {
  const type = (getHeader(request, "Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "message/sipfrag") return null;
  const match = /^SIP\/2\.0\s+(\d{3})\b/.exec(request.body.toString("utf8").trim());
  return match ? Number(match[1]) : null;
}

export function resultOfStatus(status: number): TransferResult {
  if (status >= 200 && status < 300) return "answered";
  if (status === 486 || status === 600) return "busy";
  if ([408, 480, 487, 603].includes(status)) return "no_answer";
  return "failed";
}

export async function referCall(
  ctx: SipContext,
  call: Call,
  target: string,
  options: { ringSeconds: number },
): Promise<HandOver> {
  if (!call.supportsRefer)
    return { kind: "refused", asked: false, status: null, detail: "the far end does not allow REFER" };
  if (call.state === "ended")
    return { kind: "refused", asked: false, status: null, detail: "the call has ended" };
  const referTo = target.startsWith("sip:") || target.startsWith("tel:") ? target : `tel:${target}`;
  let settle!: (answer: HandOver) => void;
  const outcome = new Promise<HandOver>((resolve) => {
    settle = resolve;
  });
  let settled = false;
  const done = (answer: HandOver) => {
    if (settled) return;
    settled = true;
    call.referWatchers = call.referWatchers.filter((watcher) => watcher !== watch);
    clearTimeout(timer);
    settle(answer);
  };
  const watch = (status: number | null, ended: boolean) => {
    if (ended) {
      // The far end took the call and left our dialog before saying how its call went.
      done({
        kind: "done",
        result: "answered",
        status: null,
        detail: "the far end ended our call after accepting the REFER",
      });
      return;
    }
    if (status === null || status < 200) return;
    done({ kind: "done", result: resultOfStatus(status), status, detail: `NOTIFY SIP/2.0 ${status}` });
  };
  // Ringing plus a margin for the far end's own set-up; no final NOTIFY by then counts as failed.
  const timer = setTimeout(
    () => done({ kind: "done", result: "failed", status: null, detail: "no final NOTIFY in time" }),
    (options.ringSeconds + 10) * 1000,
  );
  call.referWatchers.push(watch);
  const response = await sendRequest(ctx, call, "REFER", {
    headers: [
      ["Refer-To", `<${referTo}>`],
      ["Referred-By", `<${call.info.to || "sip:switchboard@localhost"}>`],
      ["Contact", contactHeader(ctx, call)],
    ],
  });
  if (!response || response.status >= 300) {
    done({
      kind: "refused",
      asked: true,
      status: response?.status ?? null,
      detail: response ? `REFER answered ${response.status} ${response.reason}` : "REFER not answered",
    });
    return outcome;
  }
  // A transfer that went through: the pipeline ends our side of the call (BYE, RFC 5589 §6.1).
  return outcome;
}
