/**
 * A SIP user-agent server (RFC 3261) on UDP and TCP that answers calls and turns each one into a CallLeg.
 *
 * What it does: INVITE (100 Trying, optional 180 Ringing, 200 OK with an SDP answer, or a delayed offer
 * answered in the ACK), ACK, BYE both ways, CANCEL (487 for the INVITE), OPTIONS, re-INVITE and UPDATE
 * (hold with a=sendonly/inactive, resume, codec change, session refresh), INFO with DTMF, session timers
 * (RFC 4028: 422 below our Min-SE, refresher uac watched, refresher uas refreshed by us), 420 for required
 * extensions we lack, 481/405/501 where due. Transactions follow RFC 3261 §17 with RFC 6026's fix:
 * retransmitted requests get the last response again, our 2xx is retransmitted until its ACK, non-2xx
 * finals until theirs, our own requests are retransmitted over UDP with T1 doubling.
 *
 * This file wires the parts together and closes them: sip-transport.ts (sockets), server-transactions.ts
 * and client-transactions.ts, sip-requests.ts (routing), incoming-call.ts (INVITE), in-dialog.ts,
 * session-timer.ts and call-ending.ts; they share one SipContext (sip-types.ts).
 */
import { endCall, hangupCall, sendBye } from "./call-ending.ts";
import { onResponse } from "./client-transactions.ts";
import { sharedMediaThread } from "./media-thread-client.ts";
import { sendRequest } from "./own-requests.ts";
import type { SipMessage } from "./sip-message.ts";
import { onRequest } from "./sip-requests.ts";
import { createSipTimers } from "./sip-timers.ts";
import { startSipTransport } from "./sip-transport.ts";
import type { SipContext, SipServer, SipServerOptions, Source } from "./sip-types.ts";

export type {
  SipCallDecision,
  SipCallLeg,
  SipCallTarget,
  SipLogger,
  SipRemote,
  SipServer,
  SipServerOptions,
} from "./sip-types.ts";

export async function startSipServer(options: SipServerOptions): Promise<SipServer> {
  const log = options.log;
  const minSE = Math.max(90, options.minSessionExpires ?? 90);
  let ctx: SipContext | null = null;

  function receive(message: SipMessage, source: Source) {
    if (!ctx) return;
    if (options.relay?.(message, source)) return;
    options.tap?.("in", message, source);
    try {
      if (message.kind === "response") onResponse(ctx, message);
      else onRequest(ctx, message, source);
    } catch (error) {
      log?.warn({ err: error }, "SIP message handling failed");
    }
  }

  const transport = options.transport
    ? await options.transport(receive)
    : await startSipTransport({
        host: options.host,
        port: options.port,
        tcp: options.tcp,
        log,
        receive,
        admit: options.admit,
      });
  const t1 = options.t1 ?? 500;
  const context: SipContext = {
    options,
    log,
    port: transport.port,
    t1,
    t2: Math.max(t1, 4000),
    minSE,
    defaultSE: Math.max(minSE, options.sessionExpires ?? 1800),
    userAgent: options.userAgent ?? "Switchboard",
    media: options.media ?? sharedMediaThread(),
    transmit: options.tap
      ? (message, to) => {
          options.tap?.("out", message, to);
          transport.transmit(message, to);
        }
      : transport.transmit,
    timers: createSipTimers(),
    serverTx: new Map(),
    clientTx: new Map(),
    calls: new Map(),
    ackCache: new Map(),
  };
  ctx = context;
  const { calls, media } = context;

  return {
    port: transport.port,
    host: options.host,
    pacer: media,
    activeCalls: () => [...calls.values()].filter((call) => call.state !== "ended").length,
    request: (message, dest) => sendRequest(context, message, dest),
    transmit: (message, to) => transport.transmit(message, to),
    async close() {
      if (transport.closing) return;
      // Hang up every call (BYE, and tell the pipeline), give the BYEs a moment to leave, then close.
      for (const call of [...calls.values()]) {
        if (call.state === "ended") continue;
        if (call.state === "early") hangupCall(context, call, "Server shutting down", true);
        else {
          sendBye(context, call, "Server shutting down");
          endCall(context, call, true, "server shutting down");
        }
      }
      transport.stopReceiving();
      await transport.flush();
      for (const tx of context.clientTx.values()) tx.resolve(null);
      context.timers.clearAll();
      context.serverTx.clear();
      calls.clear();
      await transport.close();
    },
  };
}
