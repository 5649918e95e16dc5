import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config.ts";
import { createSipEdgePolicy } from "../../sip-settings/sip-edge.ts";
import type { CallLeg } from "../call-leg.ts";
import {
  authorize,
  challengeHeader,
  parseChallenge,
  pickChallenge,
  verifyAuthorization,
} from "./digest-auth.ts";
import { readPcap, writePcap } from "./pcap.ts";
import { createSipCallRouter } from "./sip.module.ts";
import { createCaptureRecorder, redactSipText } from "./sip-capture.ts";
import { parseSipMessage } from "./sip-message.ts";
import type { SipCallTarget } from "./sip-server.ts";
import { createAllowIndex, createFloodLimiter, normaliseAllowEntry } from "./source-guard.ts";

describe("digest authentication (RFC 8760 SHA-256, MD5)", () => {
  // RFC 7616 §3.9.1: the same computation as SIP's (method and URI differ only in what they are).
  const challenge = (algorithm: string) =>
    parseChallenge(
      `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
    );
  const input = {
    method: "GET",
    uri: "/dir/index.html",
    username: "Mufasa",
    password: "Circle of Life",
    cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
    nonceCount: 1,
  };

  it("answers the RFC's test vectors for SHA-256 and MD5", () => {
    const sha = authorize({
      challenge: challenge("SHA-256") as NonNullable<ReturnType<typeof challenge>>,
      ...input,
    });
    expect(sha).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
    expect(sha).toContain("algorithm=SHA-256");
    expect(sha).toContain("qop=auth, nc=00000001");
    const md5 = authorize({
      challenge: challenge("MD5") as NonNullable<ReturnType<typeof challenge>>,
      ...input,
    });
    expect(md5).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
    expect(md5).toContain('opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"');
  });

  it("picks the strongest challenge offered and round-trips with the server side", () => {
    const picked = pickChallenge([
      'Digest realm="pbx", nonce="a", algorithm=MD5',
      'Digest realm="pbx", nonce="b", algorithm=SHA-256, qop="auth"',
      'Basic realm="nope"',
    ]);
    expect(picked).toMatchObject({ algorithm: "SHA-256", nonce: "b" });
    for (const algorithm of ["MD5", "SHA-256", "SHA-512-256", "SHA-256-sess"] as const) {
      const header = challengeHeader({ realm: "pbx.test", nonce: "n1", algorithm });
      const answer = authorize({
        challenge: parseChallenge(header) as NonNullable<ReturnType<typeof parseChallenge>>,
        method: "REGISTER",
        uri: "sip:pbx.test",
        username: "1001",
        password: "pw",
      });
      const check = { header: answer, method: "REGISTER", realm: "pbx.test", nonce: "n1" };
      expect(verifyAuthorization({ ...check, password: "pw" })).toBe(true);
      expect(verifyAuthorization({ ...check, password: "wrong" })).toBe(false);
    }
    expect(parseChallenge('Digest realm="x", nonce="y", algorithm=SHA-1')).toBeNull();
  });
});

describe("captures: redaction and pcap", () => {
  it("redacts digest responses, URI passwords and SRTP keys", () => {
    const text = [
      "REGISTER sip:pbx.test SIP/2.0",
      'Authorization: Digest username="1001", realm="pbx", nonce="n", uri="sip:pbx.test", response="0123abcd", cnonce="c1", qop=auth, nc=00000001',
      'Proxy-Authorization: Digest username="1001", response=deadbeef',
      "Contact: <sip:1001:hunter2@10.0.0.1>",
      "",
      "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:WVNfX19zZW1jdGwgKCkgewkyMjA7fQp9CnVubGVz|2^20|1:32",
    ].join("\r\n");
    const redacted = redactSipText(text);
    expect(redacted).not.toMatch(/0123abcd|deadbeef|hunter2|WVNfX19z|"c1"/);
    expect(redacted).toContain('username="1001"');
    expect(redacted).toContain('response="[redacted]"');
    expect(redacted).toContain("sip:1001:[redacted]@10.0.0.1");
  });

  it("writes IPv4 and IPv6 records with valid UDP checksums, read back the same", () => {
    const at = new Date("2026-11-24T20:00:00.250Z");
    const file = writePcap([
      {
        at,
        srcAddress: "203.0.113.7",
        srcPort: 5060,
        dstAddress: "::ffff:198.51.100.1",
        dstPort: 5070,
        payload: Buffer.from("OPTIONS sip:a SIP/2.0\r\n\r\n"),
      },
      {
        at,
        srcAddress: "2001:db8::1",
        srcPort: 5062,
        dstAddress: "2001:db8::2",
        dstPort: 5060,
        payload: Buffer.from("odd"),
      },
    ]);
    const { header, records } = readPcap(file);
    expect(header.linktype).toBe(1);
    expect(records[0]).toMatchObject({
      ipVersion: 4,
      srcAddress: "203.0.113.7",
      dstAddress: "198.51.100.1",
      srcPort: 5060,
      dstPort: 5070,
      udpChecksumOk: true,
    });
    expect(records[0]?.at.getTime()).toBe(at.getTime());
    expect(records[1]).toMatchObject({
      ipVersion: 6,
      srcAddress: "2001:db8:0:0:0:0:0:1",
      udpChecksumOk: true,
    });
    expect(records[1]?.payload.toString()).toBe("odd");
  });
});

describe("the SIP edge policy", () => {
  it("token bucket: a burst, then the rate; refused requests cost more", () => {
    let now = 0;
    const limiter = createFloodLimiter({ rate: 10, burst: 20 }, { now: () => now });
    let passed = 0;
    for (let i = 0; i < 100; i++) if (limiter.take("192.0.2.1")) passed++;
    expect(passed).toBe(20);
    now += 1000;
    passed = 0;
    for (let i = 0; i < 100; i++) if (limiter.take("192.0.2.1")) passed++;
    expect(passed).toBe(10);
    expect(limiter.take("192.0.2.2", 4)).toBe(true);
    expect(limiter.dropped).toBe(170);
  });

  it("matches addresses and ranges of each organisation's allow-list", () => {
    const index = createAllowIndex([
      { orgId: 1, ip: "203.0.113.0/24" },
      { orgId: 2, ip: "203.0.113.7" },
      { orgId: 3, ip: "2001:db8::/32" },
    ]);
    expect([...index.orgsOf("203.0.113.7")].sort()).toEqual([1, 2]);
    expect([...index.orgsOf("::ffff:203.0.113.9")]).toEqual([1]);
    expect(index.any("2001:db8:1::5")).toBe(true);
    expect(index.any("198.51.100.1")).toBe(false);
    expect(normaliseAllowEntry("10.1.2.3/8")).toBe("10.0.0.0/8");
  });

  const target = (user: string, address: string): SipCallTarget => ({
    agentAccountId: /^\d+$/.test(user) ? Number(user) : null,
    user,
    requestUri: `sip:${user}@127.0.0.1`,
    remote: { transport: "udp", address, port: 5062 },
  });

  function setup(trustLoopback: boolean) {
    const recorder = createCaptureRecorder({
      sink: async () => {},
      localAddress: () => ({ address: "127.0.0.1", port: 5060 }),
    });
    const policy = createSipEdgePolicy({ trustLoopback, sourceRate: 100, unlistedRate: 5, recorder });
    policy.setAllowlist([{ orgId: 10, ip: "203.0.113.0/24" }]);
    const accounts: Record<
      number,
      { id: number; accountType: string; organizationId: number; disabledAt: null }
    > = {
      5: { id: 5, accountType: "agent", organizationId: 10, disabledAt: null },
      6: { id: 6, accountType: "agent", organizationId: 20, disabledAt: null },
    };
    const started: number[] = [];
    const route = createSipCallRouter({
      loadAccount: (async (id: number) => accounts[id] ?? null) as never,
      voice: { startCallSession: (_leg, options) => started.push(options.agentAccountId) },
      edge: policy.edge,
    });
    return { policy, route, started };
  }
  const invite = (callId: string) =>
    parseSipMessage(
      Buffer.from(
        `INVITE sip:5@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 198.51.100.1;branch=z9hG4bK1\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:5@c>\r\nCall-ID: ${callId}\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n`,
      ),
    );
  const leg = {} as CallLeg;

  it("screens INVITEs from outside every list (403), lets listed sources reach only their organisation", async () => {
    const { policy, route, started } = setup(false);
    const request = invite("x1");
    if (request.kind !== "request") throw new Error("request");
    expect(policy.edge.screen(request, { transport: "udp", address: "198.51.100.1", port: 5060 })).toEqual({
      status: 403,
    });
    expect(policy.edge.screen(request, { transport: "udp", address: "127.0.0.1", port: 5060 })).toEqual({
      status: 403,
    });
    expect(
      policy.edge.screen(request, { transport: "udp", address: "203.0.113.50", port: 5060 }),
    ).toBeUndefined();
    expect(await route(leg, target("5", "203.0.113.50"))).toBeUndefined();
    expect(await route(leg, target("6", "203.0.113.50"))).toEqual({ status: 403 });
    expect(started).toEqual([5]);
    expect(policy.stats().refusedInvites).toBe(2);
  });

  it("keeps the development rule: loopback callers dial any agent when trusted", async () => {
    const { policy, route, started } = setup(true);
    const request = invite("x2");
    if (request.kind !== "request") throw new Error("request");
    expect(
      policy.edge.screen(request, { transport: "udp", address: "::ffff:127.0.0.1", port: 5060 }),
    ).toBeUndefined();
    expect(await route(leg, target("6", "127.0.0.1"))).toBeUndefined();
    expect(started).toEqual([6]);
    expect(loadConfig({ NODE_ENV: "production", SECRET_KEY: "x".repeat(32) }).sip.trustLoopback).toBe(false);
    expect(loadConfig({ NODE_ENV: "test" }).sip.trustLoopback).toBe(true);
    expect(loadConfig({ NODE_ENV: "test", SIP_TRUST_LOOPBACK: "false" }).sip.trustLoopback).toBe(false);
  });

  it("unlisted sources get a smaller bucket than listed ones; calls a registration claims go to its agent", () => {
    const { policy } = setup(false);
    let unlisted = 0;
    let listed = 0;
    for (let i = 0; i < 50; i++) {
      if (policy.edge.admit("198.51.100.1")) unlisted++;
      if (policy.edge.admit("203.0.113.9")) listed++;
    }
    expect(unlisted).toBe(10);
    expect(listed).toBe(50);
    policy.setRegistrar(10, { orgId: 10, agentId: 5, username: "1001", address: "192.0.2.50" });
    expect(policy.edge.claim(target("1001", "192.0.2.50"))).toEqual({ agentAccountId: 5, orgId: 10 });
    expect(policy.edge.allows(10, "192.0.2.50")).toBe(true);
    expect(policy.edge.allows(20, "192.0.2.50")).toBe(false);
    policy.setRegistrar(10, null);
    expect(policy.edge.claim(target("1001", "192.0.2.50"))).toBeNull();
  });
});
