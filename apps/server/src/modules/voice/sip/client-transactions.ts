/**
 * Client transactions (RFC 3261 §17.1): requests we send, resent over UDP with T1 doubling until a final
 * response (or 64·T1), our ACK of an INVITE's final response, and that ACK again when a 2xx comes twice.
 */

import { randomToken } from "./sip-ids.ts";
import {
  getHeader,
  getHeaders,
  parseCSeq,
  parseVia,
  type SipHeader,
  type SipRequest,
  type SipResponse,
} from "./sip-message.ts";
import type { ClientTransaction, SipContext, Source } from "./sip-types.ts";

/**
 * Sends `request` (its top Via carries `branch`) to `dest` and calls `done` once with its final response,
 * or null when none came in time (or the server closed).
 */
export function startClientTransaction(
  ctx: SipContext,
  request: SipRequest,
  branch: string,
  dest: Source,
  done: (response: SipResponse | null) => void,
) {
  const { t1, t2, timers } = ctx;
  const method = request.method;
  const tx: ClientTransaction = {
    branch,
    method,
    timers: [],
    resolve: (response) => {
      timers.clear(tx.timers);
      ctx.clientTx.delete(branch);
      if (response && method === "INVITE" && response.status >= 200) ack(ctx, request, response, dest);
      done(response);
    },
  };
  ctx.clientTx.set(branch, tx);
  ctx.transmit(request, dest);
  if (dest.transport === "udp") {
    let interval = t1;
    const resend = () => {
      ctx.transmit(request, dest);
      interval = method === "INVITE" ? interval * 2 : Math.min(interval * 2, t2);
      tx.timers.push(timers.later(interval, resend));
    };
    tx.timers.push(timers.later(interval, resend));
  }
  tx.timers.push(timers.later(64 * t1, () => tx.resolve(null)));
}

function ack(ctx: SipContext, invite: SipRequest, response: SipResponse, dest: Source) {
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
  ctx.transmit(message, dest);
  const branch = parseVia(getHeaders(invite, "Via")[0] ?? "")?.params.branch;
  if (branch && is2xx) {
    ctx.ackCache.set(branch, () => ctx.transmit(message, dest));
    ctx.timers.later(64 * ctx.t1, () => ctx.ackCache.delete(branch));
  }
}

/** A response to one of our requests. */
export function onResponse(ctx: SipContext, response: SipResponse) {
  const via = parseVia(getHeaders(response, "Via")[0] ?? "");
  const branch = via?.params.branch;
  const tx = branch ? ctx.clientTx.get(branch) : undefined;
  if (!tx) {
    // A retransmitted 2xx of our re-INVITE: our ACK got lost, send it again.
    if (branch && response.status < 300) ctx.ackCache.get(branch)?.();
    return;
  }
  const cseq = parseCSeq(getHeader(response, "CSeq") ?? "");
  if (cseq?.method !== tx.method) return;
  if (response.status < 200) {
    // It arrived: stop resending (the far end resends its final answer if ours got lost) and wait.
    ctx.timers.clear(tx.timers);
    tx.timers.push(ctx.timers.later(64 * ctx.t1, () => tx.resolve(null)));
    return;
  }
  tx.resolve(response);
}
