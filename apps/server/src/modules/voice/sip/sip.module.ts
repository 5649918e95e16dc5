import net from "node:net";
import type { AppContext } from "../../../app-context.ts";
import type { CallLeg } from "../call-leg.ts";
import type { SipEdge } from "./sip-edge-types.ts";
import type { SipCallDecision, SipCallTarget, SipServer, SipServerOptions } from "./sip-server.ts";
import { startSipServer } from "./sip-server.ts";

/** Phone numbers (modules/numbers): the agent a dialled number reaches, or null. */
export type SipNumberLookup = {
  agentForNumber(user: string): Promise<{ agentAccountId: number } | null>;
};

/** Where answered SIP calls go: the voice module's `startCallSession`. */
export type SipCallSink = { startCallSession(leg: CallLeg, options: { agentAccountId: number }): unknown };

function isLoopback(address: string): boolean {
  const plain = address.replace(/^::ffff:/i, "");
  return plain === "::1" || (net.isIPv4(plain) && plain.startsWith("127."));
}

/**
 * Decides who answers a SIP call. Until numbers and trunks arrive (the telephony issue), the sandbox lets
 * callers on this machine (loopback) dial an agent directly as `sip:<agent account id>@host:SIP_PORT`;
 * anyone else is refused (403), so an exposed SIP port cannot run up anyone's model usage.
 */
export function createSipCallRouter(deps: {
  loadAccount: AppContext["access"]["loadAccount"];
  voice: SipCallSink;
  numbers?: SipNumberLookup;
  /** SIP developer settings: allow-lists per organisation and our registrations (see sip-edge-types.ts). */
  edge?: SipEdge;
}) {
  return async (leg: CallLeg, target: SipCallTarget): Promise<SipCallDecision> => {
    // Without an edge policy, only callers on this machine; with one, sources the organisation allows.
    if (!deps.edge && !isLoopback(target.remote.address)) return { status: 403 };
    // Through a trusted SIP edge (Kamailio), the caller is the address the edge vouches for.
    const remote = deps.edge?.caller?.(leg.info?.callId ?? "", target.remote) ?? target.remote;
    const from: SipCallTarget = remote === target.remote ? target : { ...target, remote };
    // A PBX we registered with calling our Contact (its extension) reaches the registration's agent.
    const claimed = deps.edge?.claim(from) ?? null;
    // sip:<E.164 number>@host reaches the agent the number is assigned to (before the agent-id form).
    const byNumber =
      !claimed && target.user && deps.numbers ? await deps.numbers.agentForNumber(target.user) : null;
    const agentAccountId = claimed?.agentAccountId ?? byNumber?.agentAccountId ?? target.agentAccountId;
    if (agentAccountId === null) return { status: 404 };
    const account = await deps.loadAccount(agentAccountId);
    if (account?.accountType !== "agent") return { status: 404 };
    if (account.disabledAt) return { status: 403 };
    if (deps.edge && !deps.edge.allows(account.organizationId ?? 0, from.remote.address))
      return { status: 403 };
    deps.voice.startCallSession(leg, { agentAccountId: account.id });
    return undefined;
  };
}

/**
 * The SIP transport as an app module: listens on SIP_PORT (UDP and TCP, on HOST) when it is not 0 and stops
 * with the app (hanging up its calls). A port already taken is logged and SIP stays off: the web app and
 * API still start.
 */
export async function createSipModule(
  context: AppContext,
  deps: {
    voice: SipCallSink;
    numbers?: SipNumberLookup;
    edge?: SipEdge;
    /**
     * The API process with voice workers (workers/supervisor.ts): calls are relayed to them; a new call
     * that no worker can take (none is up yet) is answered 503.
     */
    workers?: { relay: SipServerOptions["relay"] & {} };
    /** A voice worker whose SIP comes through the API process (workers/worker-sip.ts). */
    transport?: SipServerOptions["transport"];
  },
) {
  const { config, log } = context;
  let server: SipServer | null = null;
  if (config.sipPort !== 0) {
    try {
      const router = createSipCallRouter({
        loadAccount: context.access.loadAccount,
        voice: deps.voice,
        numbers: deps.numbers,
        edge: deps.edge,
      });
      server = await startSipServer({
        host: config.host,
        port: config.sipPort,
        log,
        onCall: deps.workers ? () => ({ status: 503, reason: "No voice worker is ready" }) : router,
        ...(deps.edge ? { admit: deps.edge.admit, screen: deps.edge.screen, tap: deps.edge.tap } : {}),
        ...(deps.workers ? { relay: deps.workers.relay } : {}),
        ...(deps.transport ? { transport: deps.transport } : {}),
      });
      if (!deps.transport)
        log.info(
          { port: server.port },
          `SIP calls: dial sip:<agent account id>@${config.host}:${server.port}`,
        );
    } catch (error) {
      log.error(
        { err: error },
        `SIP is off: could not listen on ${config.host}:${config.sipPort} (set SIP_PORT)`,
      );
    }
  }
  return {
    routes: [] as const,
    /** The running SIP server (null when SIP_PORT is 0 or the port was taken). */
    server,
    async stop() {
      await server?.close();
    },
  };
}
