import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildTestApp, testConfig } from "../../test/helpers.ts";
import { ConfigError } from "../config.ts";
import { CODES_PER_IP } from "../modules/auth/auth.service.ts";

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Asks for sign-up codes from one connection address, each claiming another client address. */
async function askCodes(remoteAddress: string, count: number, tag: string) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await (app as FastifyInstance).inject({
      method: "POST",
      url: "/api/v1/signup/email",
      payload: { email: `${tag}${i}@example.com` },
      remoteAddress,
      headers: { "x-forwarded-for": `198.51.100.${i + 1}` },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe("TRUST_PROXY", () => {
  it("is off by default: X-Forwarded-For does not escape the per-address sign-in limit", async () => {
    app = await buildTestApp();
    const statuses = await askCodes("203.0.113.9", CODES_PER_IP + 1, "spoof");
    expect(statuses.slice(0, CODES_PER_IP).every((status) => status === 200)).toBe(true);
    expect(statuses[CODES_PER_IP]).toBe(429);
  });

  it("believes X-Forwarded-For only from the proxies it names", async () => {
    app = await buildTestApp({ TRUST_PROXY: "127.0.0.1" });
    // Behind the named proxy, each client has its own limit.
    const proxied = await askCodes("127.0.0.1", CODES_PER_IP + 1, "proxied");
    expect(proxied.every((status) => status === 200)).toBe(true);
    // Straight from anywhere else, the header is ignored.
    const direct = await askCodes("203.0.113.10", CODES_PER_IP + 1, "direct");
    expect(direct[CODES_PER_IP]).toBe(429);
  });

  it("takes a hop count", async () => {
    app = await buildTestApp({ TRUST_PROXY: "1" });
    const statuses = await askCodes("10.1.1.1", CODES_PER_IP + 1, "hops");
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it("lets the operator set how many codes one network may ask for (SIGN_IN_CODES_PER_NETWORK)", async () => {
    app = await buildTestApp({ SIGN_IN_CODES_PER_NETWORK: "3" });
    const statuses = await askCodes("203.0.113.11", 4, "office");
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(() => testConfig({ SIGN_IN_CODES_PER_NETWORK: "0" })).toThrow(/SIGN_IN_CODES_PER_NETWORK/);
  });

  it("refuses a value that is neither off, a hop count nor addresses, naming the variable", () => {
    expect(() => testConfig({ TRUST_PROXY: "everyone" })).toThrow(ConfigError);
    expect(() => testConfig({ TRUST_PROXY: "everyone" })).toThrow(/TRUST_PROXY/);
    expect(testConfig({ TRUST_PROXY: "10.0.0.0/8, 192.0.2.1" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.0.2.1",
    ]);
    expect(testConfig().trustProxy).toBe(false);
  });
});

describe("OUTBOUND_ALLOWLIST", () => {
  it("takes host:port entries (or host:*) and refuses anything else, naming the variable", () => {
    expect(
      testConfig({ OUTBOUND_ALLOWLIST: "127.0.0.1:11434, [::1]:8080,models.internal:*" }).outbound,
    ).toEqual({
      allowlist: ["127.0.0.1:11434", "[::1]:8080", "models.internal:*"],
    });
    expect(testConfig().outbound.allowlist).toEqual([]);
    expect(() => testConfig({ OUTBOUND_ALLOWLIST: "http://127.0.0.1:11434" })).toThrow(/OUTBOUND_ALLOWLIST/);
    expect(() => testConfig({ OUTBOUND_ALLOWLIST: "127.0.0.1" })).toThrow(/OUTBOUND_ALLOWLIST/);
  });
});
