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
 */

import type { CaptureRecorder } from "../voice/sip/sip-capture.ts";
import type { SipEdge } from "../voice/sip/sip-edge-types.ts";
import { getHeader } from "../voice/sip/sip-message.ts";
import {
  type AllowIndex,
  createAllowIndex,
  createFloodLimiter,
  isLoopbackAddress,
  plainAddress,
} from "../voice/sip/source-guard.ts";

export type { SipEdge };

export type RegistrarBinding = { orgId: number; agentId: number; username: string; address: string };

const REFUSED_INVITE_COST = 4;

export function createSipEdgePolicy(options: {
  trustLoopback: boolean;
  sourceRate: number;
  unlistedRate: number;
  recorder: CaptureRecorder;
}) {
  let index: AllowIndex = createAllowIndex([]);
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
      return isListed(address) ? listed.take(address) : unlisted.take(address);
    },
    screen(request, source) {
      if (isListed(source.address)) return undefined;
      refusedInvites++;
      unlisted.take(source.address, REFUSED_INVITE_COST - 1);
      options.recorder.markRefused(getHeader(request, "Call-ID") ?? "", source.address);
      return { status: 403 };
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
