import type { SipMessage, SipRequest } from "./sip-message.ts";
import type { SipCallDecision, SipCallTarget, SipRemote } from "./sip-types.ts";

export type { SipRemote };

/**
 * What the SIP module asks of the edge policy (modules/sip-settings/sip-edge.ts builds it from the
 * organisations' SIP settings): flood limits, the allow-list screen of new INVITEs, the capture tap, which
 * organisations a source may reach, and calls a registration of ours takes for an agent.
 */
export type SipEdge = {
  admit(address: string): boolean;
  screen(request: SipRequest, source: SipRemote): SipCallDecision;
  tap(direction: "in" | "out", message: SipMessage, remote: SipRemote): void;
  /** May this source reach this organisation's agents? */
  allows(orgId: number, address: string): boolean;
  /** The agent a registration of ours takes this call for (the PBX calling our Contact), or null. */
  claim(target: SipCallTarget): { agentAccountId: number; orgId: number } | null;
  /**
   * Who is calling, for the checks above: the source itself, or, for a call a trusted SIP edge relayed
   * (SIP_TRUSTED_EDGE), the caller it vouched for in X-Switchboard-Source.
   */
  caller?(callId: string, remote: SipRemote): SipRemote;
};
