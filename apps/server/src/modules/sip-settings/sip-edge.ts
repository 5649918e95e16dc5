/**
 * The SIP edge's policy, from the organisations' SIP settings, handed to the SIP server (voice/sip):
 *
 * - who may call: an INVITE from an address outside every allow-list (and not a registrar we registered
 *   with) is refused at once with 403, statelessly, and recorded in the captures of the organisation whose
 *   agent it dialled. In development and test, loopback callers are trusted as before (dial
 *   `sip:<agent id>@host`); SIP_TRUST_LOOPBACK=false (the default in production) makes loopback a source
 *   like any other. Past the edge, a call only reaches an agent of an organisation whose own list (or
 *   registrar) holds the source.
 * - flood limits: a token bucket per source address, SIP_SOURCE_RATE messages a second for listed sources
 *   and SIP_UNLISTED_RATE for the rest (bursts of twice that); a refused INVITE costs 4 tokens. What is over
 *   the limit is dropped before it is parsed.
 * - captures: every message in and out, to the capture store (org resolved from the call).
 * - a SIP edge in front (Kamailio, scripts/sip-edge.mjs): messages from an address in SIP_TRUSTED_EDGE
 *   are not flood-limited here (the edge limits each source with pike), and an INVITE it relays is judged
 *   by the caller it names in X-Switchboard-Source (the edge removes any such header a caller sends). From
 *   any other source that header is ignored.
 */

import net from "node:net";
import {
  type AllowIndex,
  type CaptureRecorder,
  createAllowIndex,
  createFloodLimiter,
  getHeader,
  isLoopbackAddress,
  plainAddress,
  type SipEdge,
  type SipRemote,
  type SipRequest,
} from "../voice/index.ts";

export type { SipEdge };

export type RegistrarBinding = { orgId: number; agentId: number; username: string; address: string };

const REFUSED_INVITE_COST = 4;
/** Calls relayed by the edge whose caller the router has not asked for yet (kept at most this many). */
const MAX_VOUCHED = 10_000;
export const EDGE_SOURCE_HEADER = "X-Switchboard-Source";

/** `203.0.113.7;port=5060;transport=udp` (what the edge writes) -> the caller, or null. */
export function parseEdgeSource(value: string | undefined): SipRemote | null {
  if (!value) return null;
  const [address = "", ...params] = value.split(";").map((part) => part.trim());
  const plain = address.replace(/^\[(.*)\]$/, "$1");
  if (!net.isIP(plain)) return null;
  const param = (name: string) =>
    params.find((p) => p.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
  const port = Number(param("port") ?? 5060);
  const transport = param("transport")?.toLowerCase() === "tcp" ? "tcp" : "udp";
  return {
    transport,
    address: plain,
    port: Number.isInteger(port) && port > 0 && port < 65_536 ? port : 5060,
  };
}

export function createSipEdgePolicy(options: {
  trustLoopback: boolean;
  sourceRate: number;
  unlistedRate: number;
  recorder: CaptureRecorder;
  /** SIP_TRUSTED_EDGE: addresses (or ranges) of SIP edges whose X-Switchboard-Source is believed. */
  trustedEdge?: readonly string[];
}) {
  let index: AllowIndex = createAllowIndex([]);
  const edges = createAllowIndex((options.trustedEdge ?? []).map((ip) => ({ orgId: 0, ip })));
  const isEdge = (address: string) => edges.size > 0 && edges.any(address);
  /** Call-ID -> the caller a trusted edge named, until the router asks. */
  const vouched = new Map<string, SipRemote>();
  /** The caller of a request: the source, or the one a trusted edge names. */
  const callerOf = (request: SipRequest, source: SipRemote): SipRemote =>
    (isEdge(source.address) && parseEdgeSource(getHeader(request, EDGE_SOURCE_HEADER))) || source;
  /** Registrars we are registered with, by address: their INVITEs are let in for their organisation. */
  const registrars = new Map<string, RegistrarBinding[]>();
  const listed = createFloodLimiter({ rate: options.sourceRate, burst: options.sourceRate * 2 });
  const unlisted = createFloodLimiter({ rate: options.unlistedRate, burst: options.unlistedRate * 2 });
  let refusedInvites = 0;

  const trusted = (address: string) => options.trustLoopback && isLoopbackAddress(address);
  const isListed = (address: string) =>
    trusted(address) || index.any(address) || registrars.has(plainAddress(address));

  const edge: SipEdge = {
    admit(address) {
      if (isEdge(address)) return true;
      return isListed(address) ? listed.take(address) : unlisted.take(address);
    },
    screen(request, source) {
      const caller = callerOf(request, source);
      const callId = getHeader(request, "Call-ID") ?? "";
      if (isListed(caller.address)) {
        if (caller !== source) {
          if (vouched.size >= MAX_VOUCHED) vouched.delete(vouched.keys().next().value ?? "");
          vouched.set(callId, caller);
        }
        return undefined;
      }
      refusedInvites++;
      if (caller === source) unlisted.take(source.address, REFUSED_INVITE_COST - 1);
      options.recorder.markRefused(callId, caller.address);
      return { status: 403 };
    },
    caller(callId, remote) {
      const caller = vouched.get(callId);
      if (!caller || !isEdge(remote.address)) return remote;
      vouched.delete(callId);
      return caller;
    },
    tap(direction, message, remote) {
      options.recorder.record(direction, message, remote);
    },
    allows(orgId, address) {
      if (trusted(address)) return true;
      if (index.orgsOf(address).has(orgId)) return true;
      return (registrars.get(plainAddress(address)) ?? []).some((binding) => binding.orgId === orgId);
    },
    claim(target) {
      const bindings = registrars.get(plainAddress(target.remote.address)) ?? [];
      const binding =
        bindings.find((b) => b.username === target.user) ?? (bindings.length === 1 ? bindings[0] : undefined);
      return binding ? { agentAccountId: binding.agentId, orgId: binding.orgId } : null;
    },
  };

  return {
    edge,
    /** Replaces the allow-lists (every organisation's). */
    setAllowlist(rows: ReadonlyArray<{ orgId: number; ip: string }>) {
      index = createAllowIndex(rows);
    },
    /** The registrar bindings of one organisation (none when its registration stopped). */
    setRegistrar(orgId: number, binding: RegistrarBinding | null) {
      for (const [address, list] of registrars) {
        const rest = list.filter((b) => b.orgId !== orgId);
        if (rest.length) registrars.set(address, rest);
        else registrars.delete(address);
      }
      if (binding) {
        const key = plainAddress(binding.address);
        registrars.set(key, [...(registrars.get(key) ?? []), binding]);
      }
    },
    stats: () => ({
      refusedInvites,
      droppedListed: listed.dropped,
      droppedUnlisted: unlisted.dropped,
      capturesDropped: options.recorder.dropped,
    }),
  };
}

export type SipEdgePolicy = ReturnType<typeof createSipEdgePolicy>;
