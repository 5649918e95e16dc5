import { lookup } from "node:dns/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../vitest.time-limits.ts";
import { expectRefusal, type TestClient, testClient } from "../../test/api-client.ts";
import { buildHierarchy } from "../../test/fixtures.ts";
import { buildTestApp } from "../../test/helpers.ts";
import { startModelServer } from "../../test/model-protocol-server.ts";
import { orgModelSettings } from "../db/schema/index.ts";
import {
  createOutbound,
  isPublicAddress,
  isRefusedHost,
  OUTBOUND_MESSAGES,
  OutboundError,
} from "./outbound.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(handler: Handler): Promise<{ server: Server; port: number; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, url: `http://127.0.0.1:${port}` };
}

const PRIVATE_URLS = [
  "http://127.0.0.1/",
  "http://localhost/",
  "http://[::1]/",
  "http://10.0.0.1/",
  "http://172.16.5.4/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://0.0.0.0/",
  "http://100.64.0.1/",
  "http://224.0.0.1/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[fc00::1]/",
  "http://[fe80::1]/",
  "http://2130706433/",
  "http://0x7f.1/",
];

/**
 * Hosts that are this machine in forms a plain comparison misses (issue 30, M5): case and a trailing dot,
 * IPv4 written into IPv6, the loopback names of /etc/hosts, and this machine's own name when it resolves to
 * a private address (`vm.` where the probe ran).
 */
const machineName = os.hostname().toLowerCase();
const machineIsPrivate = (await lookup(machineName, { all: true }).catch(() => [])).some(
  (entry) => !isPublicAddress(entry.address),
);
const LOOPBACK_SPELLINGS = [
  "LOCALHOST.",
  "localhost.",
  "[::127.0.0.1]",
  "[::7f00:1]",
  "[::ffff:127.0.0.1]",
  "[0:0:0:0:0:ffff:7f00:1]",
  "ip6-localhost",
  "ip6-loopback",
  "localhost.localdomain",
  "api.localhost",
  "127.0.0.1.",
];
const HOSTILE_HOSTS = [
  ...LOOPBACK_SPELLINGS,
  ...(machineIsPrivate ? [`${machineName}.`, machineName.toUpperCase()] : []),
];

describe("the address check", () => {
  it("takes only public unicast addresses", () => {
    expect(isPublicAddress("93.184.216.34")).toBe(true);
    expect(isPublicAddress("2606:2800:220:1:248:1893:25c8:1946")).toBe(true);
    for (const address of ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "::ffff:10.0.0.1", "0.0.0.0"])
      expect(isPublicAddress(address), address).toBe(false);
    // IPv4-compatible IPv6 (deprecated, ::/96) embeds any IPv4 address: none is public.
    expect(isPublicAddress("::7f00:1")).toBe(false);
    expect(isPublicAddress("::5db8:d822")).toBe(false);
  });

  it("refuses loopback names and private literals in every spelling, without asking DNS", () => {
    for (const host of LOOPBACK_SPELLINGS) expect(isRefusedHost(host), host).toBe(true);
    for (const host of [
      "example.com",
      "EXAMPLE.com.",
      "[2606:2800:220:1:248:1893:25c8:1946]",
      "93.184.216.34.",
    ])
      expect(isRefusedHost(host), host).toBe(false);
  });
});

describe("the outbound module", () => {
  let target: Awaited<ReturnType<typeof serve>>;
  let hits = 0;
  const outbound = (allowlist: string[] = [], httpsOnly = false) =>
    createOutbound({ allowlist, httpsOnly, timeoutMs: 2000, maxBytes: 1024 * 1024 });

  beforeAll(async () => {
    target = await serve((req, res) => {
      hits += 1;
      if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("x".repeat(2 * 1024 * 1024));
      } else if (req.url === "/hang") {
        res.writeHead(200);
        res.write("partial");
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ secret: "internal only" }));
      }
    });
  });
  afterAll(() => {
    target.server.closeAllConnections();
    target.server.close();
  });

  it.each(PRIVATE_URLS)("refuses %s before connecting", async (url) => {
    const guard = outbound();
    await expect(guard.check(url)).rejects.toMatchObject({ reason: "privateAddress" });
    await guard.close();
  });

  it("refuses other schemes, and plain http in production", async () => {
    const guard = outbound([], true);
    for (const url of ["file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "ftp://example.com/"])
      await expect(guard.check(url)).rejects.toMatchObject({ message: OUTBOUND_MESSAGES.scheme });
    await expect(guard.check("http://example.com/")).rejects.toMatchObject({ reason: "httpsOnly" });
    await guard.close();
  });

  it("never connects to a private address, also when the name is resolved at connect time", async () => {
    const guard = outbound();
    const before = hits;
    await expect(guard.fetchText(target.url)).rejects.toBeInstanceOf(OutboundError);
    // `localhost` is not a literal address: it is refused by the lookup the socket itself uses, which is
    // what stops a name that resolves to a public address when checked and a private one when connecting.
    await expect(guard.fetchText(`http://localhost:${target.port}/`)).rejects.toMatchObject({
      reason: "privateAddress",
    });
    expect(hits).toBe(before);
    await guard.close();
  });

  it.each(HOSTILE_HOSTS)("refuses %s when it is saved and when it is reached", async (host) => {
    const guard = outbound();
    const address = `http://${host}:${target.port}/`;
    await expect(guard.check(address)).rejects.toMatchObject({ reason: "privateAddress" });
    const before = hits;
    await expect(guard.fetchText(address)).rejects.toMatchObject({ reason: "privateAddress" });
    expect(hits).toBe(before);
    await guard.close();
  });

  it("matches an allow-list entry however its host is spelled", async () => {
    const guard = outbound([`localhost:${target.port}`]);
    expect((await guard.fetchText(`http://LOCALHOST.:${target.port}/ok`)).status).toBe(200);
    await guard.close();
  });

  it("reaches a private destination the operator allowed, and only that one", async () => {
    const exact = outbound([`127.0.0.1:${target.port}`]);
    expect((await exact.fetchText(`${target.url}/ok`)).text).toContain("internal only");
    await expect(exact.fetchText(`http://127.0.0.1:${target.port + 1}/`)).rejects.toMatchObject({
      reason: "privateAddress",
    });
    await exact.close();
    const anyPort = outbound(["127.0.0.1:*"]);
    expect((await anyPort.fetchText(`${target.url}/ok`)).status).toBe(200);
    await anyPort.close();
  });

  it("follows no redirect to a refused address", async () => {
    const redirector = await serve((_req, res) => {
      res.writeHead(302, { location: `${target.url}/ok` });
      res.end();
    });
    const guard = outbound([`127.0.0.1:${redirector.port}`]);
    const before = hits;
    await expect(guard.fetchText(`${redirector.url}/go`)).rejects.toMatchObject({ reason: "privateAddress" });
    expect(hits).toBe(before);
    // A POST does not follow redirects at all: the 3xx is the answer.
    expect((await guard.fetchText(`${redirector.url}/go`, { method: "POST", body: "{}" })).status).toBe(302);
    await guard.close();
    redirector.server.close();
  });

  it("caps the size and the time of an answer", async () => {
    const guard = outbound([`127.0.0.1:${target.port}`]);
    await expect(guard.fetchText(`${target.url}/big`)).rejects.toMatchObject({ reason: "tooLarge" });
    const started = Date.now();
    await expect(guard.fetchText(`${target.url}/hang`, { timeoutMs: 300 })).rejects.toMatchObject({
      reason: "timeout",
    });
    expect(Date.now() - started).toBeLessThan(within(2000));
    await guard.close();
  });
});

describe("saving a user-given address", () => {
  let app: FastifyInstance;
  let client: TestClient;
  let token: string;
  let world: Awaited<ReturnType<typeof buildHierarchy>>;

  beforeAll(async () => {
    app = await buildTestApp();
    world = await buildHierarchy(app);
    client = testClient(app);
    token = world.members.o1Owner.token;
    await client(token).call(api.installApp, {
      params: { appId: "webhook", appVersion: "1.0.0" },
      body: { data: {} },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    "http://127.0.0.1:8080/hook",
    "http://localhost/hook",
    "http://[::1]/hook",
    "http://10.0.0.1/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://0.0.0.0/",
  ])("the webhook app refuses %s with the reason", async (url) => {
    const webhook = { appId: "webhook", appVersion: "1.0.0" };
    await expectRefusal(
      client(token).call(api.updateApp, { params: webhook, body: { data: { url } } }),
      400,
      `url: ${OUTBOUND_MESSAGES.privateAddress}`,
    );
    const app = await client(token).call(api.getApp, { params: webhook });
    expect(app.app.data?.url).toBe("");
  });

  it.each([
    ["http://127.0.0.1:11434/v1", OUTBOUND_MESSAGES.privateAddress],
    ["http://169.254.169.254/", OUTBOUND_MESSAGES.privateAddress],
    ["http://localhost:11434/v1", OUTBOUND_MESSAGES.privateAddress],
    ["file:///etc/passwd", OUTBOUND_MESSAGES.scheme],
    ["gopher://127.0.0.1:6379/_INFO", OUTBOUND_MESSAGES.scheme],
  ])("the model settings refuse %s", async (baseUrl, message) => {
    await expectRefusal(
      client(token).call(api.saveModelSettings, {
        body: { provider: "openai-compatible", baseUrl, model: "llama3" },
      }),
      400,
      `baseUrl: ${message}`,
    );
    expect((await client(token).call(api.getModelSettings)).settings.source).toBe("deployment");
  });

  it.each(HOSTILE_HOSTS)(
    "every save path refuses %s with the reason the connection would give",
    async (host) => {
      const url = `http://${host}:8080/hook`;
      const refused = `url: ${OUTBOUND_MESSAGES.privateAddress}`;
      await expectRefusal(
        client(token).call(api.createWebhook, { body: { url } }),
        400,
        OUTBOUND_MESSAGES.privateAddress,
      );
      await expectRefusal(
        client(token).call(api.updateApp, {
          params: { appId: "webhook", appVersion: "1.0.0" },
          body: { data: { url } },
        }),
        400,
        refused,
      );
      await expectRefusal(
        client(token).call(api.saveModelSettings, {
          body: { provider: "openai-compatible", baseUrl: url, model: "llama3" },
        }),
        400,
        `baseUrl: ${OUTBOUND_MESSAGES.privateAddress}`,
      );
      const kb = await client(token).call(api.createKnowledgeBase, { body: { title: `KB ${host}` } });
      await expectRefusal(
        client(token).call(api.addKbDocuments, {
          params: { id: kb.knowledgeBase.id },
          body: { urls: [url] },
        }),
        400,
        refused,
      );
      expect(
        (await client(token).call(api.listKbDocuments, { params: { id: kb.knowledgeBase.id } })).documents,
      ).toEqual([]);
    },
  );

  it.each(HOSTILE_HOSTS)("a SIP host %s is refused when saved and when dialled", async (host) => {
    const sipHost = host.replace(/^\[(.*)\]$/, "$1");
    await expectRefusal(
      client(token).call(api.saveSipOutboundRoute, { body: { route: { name: "PBX", host: sipHost } } }),
      400,
      api.SIP_MESSAGES.privateHost,
    );
    await expect(app.sipSettings.service.resolveDestination(sipHost, 5060)).rejects.toThrow(
      api.SIP_MESSAGES.privateHost,
    );
  });

  it("a private model address already in the database is still never reached by the test chat", async () => {
    let requests = 0;
    const server = await startModelServer(() => {
      requests += 1;
      return { text: "secrets from inside the network" };
    });
    try {
      await app.context.database.db.insert(orgModelSettings).values({
        orgId: world.accounts.O1.id,
        provider: "openai-compatible",
        baseUrl: server.url,
        model: "m",
      });
      // The test chat answers server-sent events (text).
      const res: unknown = await client(token).call(api.testChat, {
        body: { agentId: world.accounts.A1.id, message: "What do you know?" },
      });
      expect(String(res)).not.toContain("secrets from inside");
      expect(requests).toBe(0);
    } finally {
      await server.close();
    }
  });
});
