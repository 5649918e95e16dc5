// SIP_TRUSTED_EDGE: a call a trusted SIP edge (Kamailio, scripts/sip-edge.mjs) relays is judged by the caller
// the edge names in X-Switchboard-Source; from anyone else that header counts for nothing.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import type { CallLeg } from "../voice/call-leg.ts";
import { createSipCallRouter } from "../voice/sip/sip.module.ts";
import { createCaptureRecorder } from "../voice/sip/sip-capture.ts";
import { parseSipMessage, type SipRequest } from "../voice/sip/sip-message.ts";
import type { SipCallTarget } from "../voice/sip/sip-server.ts";
import { createSipEdgePolicy, parseEdgeSource } from "./sip-edge.ts";

const EDGE = { transport: "udp" as const, address: "10.0.0.9", port: 5060 };

function setup() {
  const recorder = createCaptureRecorder({
    sink: async () => {},
    localAddress: () => ({ address: "127.0.0.1", port: 5060 }),
  });
  const policy = createSipEdgePolicy({
    trustLoopback: false,
    sourceRate: 100,
    unlistedRate: 2,
    recorder,
    trustedEdge: ["10.0.0.8/30"],
  });
  // Organisation 10 allows 203.0.113.0/24, organisation 20 allows 198.51.100.7.
  policy.setAllowlist([
    { orgId: 10, ip: "203.0.113.0/24" },
    { orgId: 20, ip: "198.51.100.7" },
  ]);
  const started: number[] = [];
  const route = createSipCallRouter({
    loadAccount: (async (id: number) =>
      ({
        5: { id: 5, accountType: "agent", organizationId: 10, disabledAt: null },
        6: { id: 6, accountType: "agent", organizationId: 20, disabledAt: null },
      })[id] ?? null) as never,
    voice: { startCallSession: (_leg, options) => started.push(options.agentAccountId) },
    edge: policy.edge,
  });
  return { policy, route, started };
}

function invite(callId: string, source?: string): SipRequest {
  const message = parseSipMessage(
    Buffer.from(
      [
        "INVITE sip:5@10.0.0.20:5071 SIP/2.0",
        "Via: SIP/2.0/UDP 10.0.0.9;branch=z9hG4bKedge1",
        "Via: SIP/2.0/UDP 203.0.113.4;branch=z9hG4bK1",
        "From: <sip:a@b>;tag=1",
        "To: <sip:5@c>",
        `Call-ID: ${callId}`,
        "CSeq: 1 INVITE",
        ...(source ? [`X-Switchboard-Source: ${source}`] : []),
        "Content-Length: 0",
        "",
        "",
      ].join("\r\n"),
    ),
  );
  if (message.kind !== "request") throw new Error("not a request");
  return message;
}

const leg = (callId: string) => ({ info: { callId } }) as CallLeg;
const target = (user: string, remote = EDGE): SipCallTarget => ({
  agentAccountId: Number(user),
  user,
  requestUri: `sip:${user}@10.0.0.20`,
  remote,
});

describe("a trusted SIP edge in front (SIP_TRUSTED_EDGE)", () => {
  it("judges a relayed call by the caller the edge names, against the called organisation's own list", async () => {
    const { policy, route, started } = setup();
    // The edge relays a call from 203.0.113.4 (organisation 10's range) to organisation 10's agent.
    expect(policy.edge.screen(invite("a", "203.0.113.4;port=5062;transport=udp"), EDGE)).toBeUndefined();
    expect(await route(leg("a"), target("5"))).toBeUndefined();
    // The same caller to organisation 20's agent: listed somewhere, but not by that organisation.
    expect(policy.edge.screen(invite("b", "203.0.113.4;port=5062"), EDGE)).toBeUndefined();
    expect(await route(leg("b"), target("6"))).toEqual({ status: 403 });
    // A caller on no list, relayed by the edge: refused before any work, like a direct one.
    expect(policy.edge.screen(invite("c", "192.0.2.50;port=5060"), EDGE)).toEqual({ status: 403 });
    expect(started).toEqual([5]);
    expect(policy.stats().refusedInvites).toBe(1);
  });

  it("believes the header only from the edge; the edge's own address is on no list", async () => {
    const { policy, route } = setup();
    // From a caller on no list, naming a listed address: still refused.
    const direct = { transport: "udp" as const, address: "192.0.2.50", port: 5060 };
    expect(policy.edge.screen(invite("d", "203.0.113.4"), direct)).toEqual({ status: 403 });
    // From the edge without the header: the edge itself is the caller, and it is on no list.
    expect(policy.edge.screen(invite("e"), EDGE)).toEqual({ status: 403 });
    // A listed caller dialling directly is judged by its own address as before.
    const listed = { transport: "udp" as const, address: "198.51.100.7", port: 5060 };
    expect(policy.edge.screen(invite("f", "203.0.113.4"), listed)).toBeUndefined();
    expect(await route(leg("f"), target("6", listed))).toBeUndefined();
    expect(await route(leg("f"), target("5", listed))).toEqual({ status: 403 });
  });

  it("does not flood-limit the edge's traffic (the edge limits each source); others as before", () => {
    const { policy } = setup();
    for (let i = 0; i < 50; i++) expect(policy.edge.admit("10.0.0.9")).toBe(true);
    const unlisted = Array.from({ length: 10 }, () => policy.edge.admit("192.0.2.50"));
    expect(unlisted.filter(Boolean)).toHaveLength(4); // a burst of twice SIP_UNLISTED_RATE
  });

  it("reads the edge's header and the setting", () => {
    expect(parseEdgeSource("203.0.113.4;port=5062;transport=tcp")).toEqual({
      transport: "tcp",
      address: "203.0.113.4",
      port: 5062,
    });
    expect(parseEdgeSource("2001:db8::5;port=5060;transport=udp")).toMatchObject({ address: "2001:db8::5" });
    expect(parseEdgeSource("[2001:db8::5]")).toMatchObject({ address: "2001:db8::5", port: 5060 });
    expect(parseEdgeSource("pbx.example;port=5060")).toBeNull();
    expect(parseEdgeSource(undefined)).toBeNull();
    expect(loadConfig({ NODE_ENV: "test" }).sip.trustedEdge).toEqual([]);
    expect(
      loadConfig({ NODE_ENV: "test", SIP_TRUSTED_EDGE: "10.0.0.9, 10.1.0.0/16" }).sip.trustedEdge,
    ).toEqual(["10.0.0.9", "10.1.0.0/16"]);
    expect(() => loadConfig({ NODE_ENV: "test", SIP_TRUSTED_EDGE: "edge.example" })).toThrow(
      /SIP_TRUSTED_EDGE must be a comma list of IP addresses or CIDR ranges/,
    );
  });
});
