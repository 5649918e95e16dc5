/**
 * Server transactions (RFC 3261 §17.2 with RFC 6026's fix): the responses we send to requests we received,
 * matched by branch (or, for RFC 2543 peers, by what identifies the request). A final response is kept to
 * answer retransmissions; a non-2xx final to an INVITE is resent over UDP until its ACK.
 */

import { tagOf } from "./sip-ids.ts";
import {
  getHeader,
  getHeaders,
  headerParams,
  parseCSeq,
  parseVia,
  REASONS,
  type SipHeader,
  type SipRequest,
  type SipResponse,
} from "./sip-message.ts";
import type { ServerTransaction, SipContext, Source } from "./sip-types.ts";

export type ResponseOptions = {
  toTag?: string;
  headers?: SipHeader[];
  body?: string;
  contentType?: string;
  source?: Source;
};

export function buildResponse(
  ctx: SipContext,
  request: SipRequest,
  status: number,
  options: ResponseOptions = {},
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
  headers.push(["Server", ctx.userAgent]);
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

/** The key of the server transaction a request belongs to (an ACK to the INVITE's). */
export function txKey(request: SipRequest): string {
  const via = parseVia(getHeaders(request, "Via")[0] ?? "");
  const branch = via?.params.branch;
  const method = request.method === "ACK" ? "INVITE" : request.method;
  if (branch?.startsWith("z9hG4bK")) return `${branch}|${via?.host}:${via?.port ?? ""}|${method}`;
  // RFC 2543 peers: match on what identifies the request instead.
  const cseq = parseCSeq(getHeader(request, "CSeq") ?? "");
  return `${getHeader(request, "Call-ID")}|${tagOf(getHeader(request, "From"))}|${cseq?.seq}|${method}`;
}

/** Sends a response in a server transaction: provisional ones, then a final one that is kept for resends. */
export function respond(ctx: SipContext, tx: ServerTransaction, response: SipResponse) {
  const { t1, t2, timers } = ctx;
  if (tx.lastResponse && tx.lastResponse.status >= 200) return; // already final
  tx.lastResponse = response;
  ctx.transmit(response, tx.source);
  if (response.status < 200) return;
  const isInvite = tx.request.method === "INVITE";
  if (isInvite && response.status >= 300 && tx.source.transport === "udp") {
    // Timer G: resend the final response until the ACK (which clears the timers), Timer H: give up.
    let interval = t1;
    const resend = () => {
      ctx.transmit(response, tx.source);
      interval = Math.min(interval * 2, t2);
      tx.timers.push(timers.later(interval, resend));
    };
    tx.timers.push(timers.later(interval, resend));
  }
  // Keep the transaction to absorb retransmissions (Timer J / RFC 6026 Timer L), then forget it.
  tx.timers.push(
    timers.later(64 * t1, () => {
      timers.clear(tx.timers);
      ctx.serverTx.delete(tx.key);
    }),
  );
}

/** Answers a request with a status in its own (new or existing) server transaction. */
export function reply(
  ctx: SipContext,
  request: SipRequest,
  source: Source,
  status: number,
  extra: ResponseOptions = {},
) {
  const tx = openTransaction(ctx, request, source);
  respond(ctx, tx, buildResponse(ctx, request, status, { ...extra, source }));
}

/** The request's server transaction: the one it is a retransmission in, or a new one. */
export function openTransaction(ctx: SipContext, request: SipRequest, source: Source): ServerTransaction {
  const key = txKey(request);
  const existing = ctx.serverTx.get(key);
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
  ctx.serverTx.set(key, tx);
  return tx;
}
