import net from "node:net";
import type { AppContext } from "../../../app-context.ts";
import type { CallLeg } from "../call-leg.ts";
import type { SipCallDecision, SipCallTarget, SipServer } from "./sip-server.ts";
import { startSipServer } from "./sip-server.ts";

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
}) {
  return async (leg: CallLeg, target: SipCallTarget): Promise<SipCallDecision> => {
    if (!isLoopback(target.remote.address)) return { status: 403 };
    if (target.agentAccountId === null) return { status: 404 };
    const account = await deps.loadAccount(target.agentAccountId);
    if (account?.accountType !== "agent") return { status: 404 };
    if (account.disabledAt) return { status: 403 };
    deps.voice.startCallSession(leg, { agentAccountId: account.id });
    return undefined;
  };
}

/**
 * The SIP transport as an app module: listens on SIP_PORT (UDP and TCP, on HOST) when it is not 0 and stops
 * with the app (hanging up its calls). A port already taken is logged and SIP stays off: the web app and
 * API still start.
 */
export async function createSipModule(context: AppContext, deps: { voice: SipCallSink }) {
  const { config, log } = context;
  let server: SipServer | null = null;
  if (config.sipPort !== 0) {
    try {
      server = await startSipServer({
        host: config.host,
        port: config.sipPort,
        log,
        onCall: createSipCallRouter({ loadAccount: context.access.loadAccount, voice: deps.voice }),
      });
      log.info({ port: server.port }, `SIP calls: dial sip:<agent account id>@${config.host}:${server.port}`);
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
