import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config.ts";
import type { CallLeg } from "../call-leg.ts";
import { createSipCallRouter } from "./sip.module.ts";
import type { SipCallTarget } from "./sip-server.ts";

const accounts: Record<number, { id: number; accountType: string; disabledAt: Date | null }> = {
  5: { id: 5, accountType: "agent", disabledAt: null },
  6: { id: 6, accountType: "organization", disabledAt: null },
  7: { id: 7, accountType: "agent", disabledAt: new Date() },
};

function router() {
  const started: number[] = [];
  const route = createSipCallRouter({
    loadAccount: (async (id: number) => accounts[id] ?? null) as never,
    voice: { startCallSession: (_leg, options) => started.push(options.agentAccountId) },
  });
  return { route, started };
}

const target = (user: string, address = "127.0.0.1"): SipCallTarget => ({
  agentAccountId: /^\d+$/.test(user) ? Number(user) : null,
  user,
  requestUri: `sip:${user}@127.0.0.1`,
  remote: { transport: "udp", address, port: 5062 },
});

describe("SIP call routing (development: sip:<agent account id>@host)", () => {
  const leg = {} as CallLeg;

  it("hands a loopback call for an agent account to the voice pipeline", async () => {
    const { route, started } = router();
    await expect(route(leg, target("5"))).resolves.toBeUndefined();
    await expect(route(leg, target("5", "::ffff:127.0.0.1"))).resolves.toBeUndefined();
    expect(started).toEqual([5, 5]);
  });

  it("answers 404 for what is not an agent account, 403 for a disabled one or a caller off this machine", async () => {
    const { route, started } = router();
    expect(await route(leg, target("99"))).toEqual({ status: 404 });
    expect(await route(leg, target("6"))).toEqual({ status: 404 });
    expect(await route(leg, target("service"))).toEqual({ status: 404 });
    expect(await route(leg, target("7"))).toEqual({ status: 403 });
    expect(await route(leg, target("5", "192.0.2.7"))).toEqual({ status: 403 });
    expect(started).toEqual([]);
  });

  it("reads SIP_PORT: 5060 by default, off under test unless set, 0 turns it off", () => {
    expect(loadConfig({}).sipPort).toBe(5060);
    expect(loadConfig({ NODE_ENV: "test" }).sipPort).toBe(0);
    expect(loadConfig({ NODE_ENV: "test", SIP_PORT: "5070" }).sipPort).toBe(5070);
    expect(loadConfig({ SIP_PORT: "0" }).sipPort).toBe(0);
    expect(() => loadConfig({ SIP_PORT: "70000" })).toThrow(
      'Invalid configuration: SIP_PORT must be a whole number from 0 to 65535 (got "70000")',
    );
  });
});
