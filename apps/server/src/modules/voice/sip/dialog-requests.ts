/** Requests we send inside a call's dialog (BYE, re-INVITE, UPDATE): where they go and what they carry. */
import { lookup } from "node:dns/promises";
import net from "node:net";
import { startClientTransaction } from "./client-transactions.ts";
import { randomToken } from "./sip-ids.ts";
import { addressUri, parseSipUri, type SipHeader, type SipRequest, type SipResponse } from "./sip-message.ts";
import type { Call, SipContext, Source } from "./sip-types.ts";

/** The next hop of the dialog: its first route, else the remote target (resolved to an address). */
async function destinationOf(call: Call): Promise<Source | null> {
  const next = call.routeSet[0] ? addressUri(call.routeSet[0]) : call.remoteTarget;
  const uri = parseSipUri(next);
  if (!uri) return null;
  const tcp = uri.params.transport?.toLowerCase() === "tcp" || call.source.transport === "tcp";
  let address = uri.host;
  if (!net.isIP(address)) {
    try {
      address = (await lookup(address)).address;
    } catch {
      return null;
    }
  }
  const dest: Source = { transport: tcp ? "tcp" : "udp", address, port: uri.port ?? 5060 };
  if (tcp && call.source.socket && !call.source.socket.destroyed) dest.socket = call.source.socket;
  return dest;
}

/** Sends a request in the call's dialog; resolves with its final response, or null (no answer, no route). */
export function sendRequest(
  ctx: SipContext,
  call: Call,
  method: string,
  extra: { headers?: SipHeader[]; body?: string } = {},
): Promise<SipResponse | null> {
  return new Promise((resolve) => {
    destinationOf(call)
      .then((dest) => {
        if (!dest) {
          resolve(null);
          return;
        }
        const branch = `z9hG4bK${randomToken()}`;
        call.localCSeq++;
        const host = net.isIP(call.localHost) === 6 ? `[${call.localHost}]` : call.localHost;
        const headers: SipHeader[] = [
          ["Via", `SIP/2.0/${dest.transport.toUpperCase()} ${host}:${ctx.port};branch=${branch};rport`],
          ["Max-Forwards", "70"],
          ["From", call.localAddress],
          ["To", call.remoteAddress],
          ["Call-ID", call.callId],
          ["CSeq", `${call.localCSeq} ${method}`],
          ...call.routeSet.map((route): SipHeader => ["Route", route]),
          ["User-Agent", ctx.userAgent],
          ...(extra.headers ?? []),
        ];
        if (extra.body !== undefined) headers.push(["Content-Type", "application/sdp"]);
        const request: SipRequest = {
          kind: "request",
          method,
          uri: call.remoteTarget,
          headers,
          body: Buffer.from(extra.body ?? "", "utf8"),
        };
        startClientTransaction(ctx, request, branch, dest, resolve);
      })
      .catch((error: unknown) => {
        ctx.log?.warn(
          { err: error, callId: call.callId, method },
          "a SIP request in a call could not be sent",
        );
        resolve(null);
      });
  });
}

/** Our Contact in the call's dialog (where the far end sends its requests). */
export function contactHeader(ctx: SipContext, call: Call): string {
  const transport = call.source.transport === "tcp" ? ";transport=tcp" : "";
  const host = net.isIP(call.localHost) === 6 ? `[${call.localHost}]` : call.localHost;
  return `<sip:switchboard@${host}:${ctx.port}${transport}>`;
}
