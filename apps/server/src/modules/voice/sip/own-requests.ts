/**
 * Requests of our own outside calls (REGISTER to a PBX, OPTIONS pings): sent from the server's SIP port in
 * a client transaction (resent over UDP, matched by the top Via's branch), resolving with the final answer.
 */
import { startClientTransaction } from "./client-transactions.ts";
import { getHeaders, parseVia, type SipRequest, type SipResponse } from "./sip-message.ts";
import type { SipContext, SipRemote } from "./sip-types.ts";

export function sendRequest(
  ctx: SipContext,
  message: SipRequest,
  dest: SipRemote,
): Promise<SipResponse | null> {
  const branch = parseVia(getHeaders(message, "Via")[0] ?? "")?.params.branch;
  if (!branch) return Promise.reject(new Error("a request of ours needs a Via with a branch"));
  return new Promise((resolve) => startClientTransaction(ctx, message, branch, dest, resolve));
}
