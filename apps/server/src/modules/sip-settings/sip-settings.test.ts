// SIP developer settings against the real app and sipp: the allow-list refuses an unlisted source with 403
// (from 127.0.0.1 too, with SIP_TRUST_LOOPBACK=false) and the attempt shows in the captures, which download
// as text and as pcap; outbound routes keep their password encrypted; our registration to a sipp registrar
// answers its digest challenge, refreshes and unregisters.
import { spawn } from "node:child_process";
import dgram from "node:dgram";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, putOnPlan } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { waitUntil } from "../../../test/wait-for.ts";
import { sipOutboundRoutes } from "../../db/schema/index.ts";
import { readPcap } from "../voice/sip/pcap.ts";
import { parseSipMessage } from "../voice/sip/sip-message.ts";
import { freeUdpPort, haveSipp, runSipp, SIP_FIXTURES, SIPP, SIPP_MISSING } from "../voice/sip/sipp.ts";
import type { SipSettingsModule } from "./sip-settings.module.ts";

if (!haveSipp) console.warn(`Skipping the sipp parts of the SIP settings tests: ${SIPP_MISSING}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** sipp as a UAS (the registrar scenario) on its own port; resolves with its exit code and output. */
async function startSippServer(scenario: string, port: number) {
  const cwd = mkdtempSync(path.join(tmpdir(), "sipp-uas-"));
  const child = spawn(
    SIPP,
    [
      "-sf",
      path.join(SIP_FIXTURES, scenario),
      "-i",
      "127.0.0.1",
      "-p",
      String(port),
      "-m",
      "1",
      "-nostdin",
      "-timeout",
      "40s",
      "-timeout_error",
      "-trace_err",
    ],
    { cwd, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-8000);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-8000);
  });
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("exit", (code) => {
      for (const file of readdirSync(cwd))
        if (file.endsWith("_errors.log"))
          output += `\n${readFileSync(path.join(cwd, file), "utf8").slice(-3000)}`;
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, output });
    }),
  );
  return { exited, kill: () => child.kill("SIGTERM") };
}

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let sipPort: number;
let client: ReturnType<typeof testClient>;

beforeAll(async () => {
  sipPort = await freeUdpPort();
  app = await buildTestApp({
    SIP_PORT: String(sipPort),
    SIP_TRUST_LOOPBACK: "false",
    OUTBOUND_ALLOWLIST: "127.0.0.1:*",
  });
  world = await buildHierarchy(app);
  // The organisation's phone number is the one its Pro plan includes.
  await putOnPlan(app, world.accounts.O1.id);
  client = testClient(app);
}, within(60_000));
afterAll(async () => {
  await app?.close();
});

const owner = () => client(world.members.o1Owner.token, world.accounts.O1.id);
const sipSettings = (): SipSettingsModule => app.sipSettings;

describe("SIP allow-list", () => {
  it("adds (address or CIDR, normalised), lists, refuses duplicates and bad input, and deletes", async () => {
    const added = await owner().call(api.addSipIpWhitelist, {
      body: { ip: "203.0.113.9/24", label: "Carrier" },
    });
    expect(added.entry).toMatchObject({ ip: "203.0.113.0/24", label: "Carrier" });
    await owner().call(api.addSipIpWhitelist, { body: { ip: "2001:db8::7", label: "" } });
    await expectRefusal(
      owner().call(api.addSipIpWhitelist, { body: { ip: "203.0.113.0/24", label: "again" } }),
      400,
      api.SIP_MESSAGES.duplicateIp,
    );
    await expectRefusal(
      owner().call(api.addSipIpWhitelist, { body: { ip: "300.1.1.1", label: "" } }),
      400,
      new RegExp(api.SIP_MESSAGES.badIp.replace(/[()]/g, "\\$&")),
    );
    const list = await owner().call(api.listSipIpWhitelist, {});
    expect(list.map((entry) => entry.ip)).toEqual(["203.0.113.0/24", "2001:db8::7"]);
    // Another organisation sees none of it.
    const other = await client(world.members.o2Owner.token, world.accounts.O2.id).call(
      api.listSipIpWhitelist,
      {},
    );
    expect(other).toEqual([]);
    expect(await owner().call(api.deleteSipIpWhitelist, { body: { ip: "203.0.113.9/24" } })).toEqual({
      success: true,
      deleted: 1,
    });
    await owner().call(api.deleteSipIpWhitelist, { body: { ip: "2001:db8::7" } });
    await expectRefusal(
      owner().call(api.deleteSipIpWhitelist, { body: { ip: "2001:db8::7" } }),
      404,
      api.SIP_MESSAGES.ipNotFound,
    );
  });
});

describe.skipIf(!haveSipp)("the SIP edge with sipp", () => {
  it(
    "refuses an unlisted source (127.0.0.1, loopback not trusted) with 403 and shows it in the captures",
    async () => {
      const agentId = world.accounts.A1.id;
      const run = await runSipp({
        port: sipPort,
        scenario: "uac",
        service: String(agentId),
        timeoutMs: 8000,
      });
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(/403/);
      await sipSettings().recorder.flush();
      const captures = await waitUntil(
        () => owner().call(api.getSipCaptures, { query: {} }),
        (answer) => answer.calls.some((call) => call.refused),
      );
      const refused = captures.calls.find((call) => call.refused);
      expect(refused).toMatchObject({
        method: "INVITE",
        finalStatus: 403,
        requestUri: expect.stringContaining(`sip:${agentId}@`),
        remote: expect.stringMatching(/^udp 127\.0\.0\.1:\d+$/),
      });
      // Every message of the call: the INVITE in, our 403 out (no 100 Trying, no RTP), and its ACK.
      const call = await owner().call(api.getSipCaptures, { query: { sipCallId: refused?.sipCallId } });
      const lines = call.messages.map(
        (m) =>
          `${m.direction} ${m.firstLine
            .split(" ")
            .slice(0, m.firstLine.startsWith("SIP/") ? 2 : 1)
            .join(" ")}`,
      );
      expect(lines[0]).toBe("in INVITE");
      expect(lines).toContain("out SIP/2.0 403");
      expect(lines).not.toContain("out SIP/2.0 100");
      // The other organisation does not see it.
      const other = await client(world.members.o2Owner.token, world.accounts.O2.id).call(api.getSipCaptures, {
        query: {},
      });
      expect(other.calls).toEqual([]);
    },
    within(30_000),
  );

  it(
    "lets a listed source reach the organisation's agent, and only that organisation's",
    async () => {
      await owner().call(api.addSipIpWhitelist, { body: { ip: "127.0.0.0/8", label: "this machine" } });
      try {
        // O2's agent is still out of reach: 127.0.0.1 is on O1's list, not O2's.
        const foreign = await runSipp({
          port: sipPort,
          scenario: "uac",
          service: String(world.accounts.A2.id),
          timeoutMs: 8000,
        });
        expect(foreign.code).not.toBe(0);
        expect(foreign.output).toMatch(/403/);
        // O1's agent answers (an OPTIONS ping first: listed sources are answered too).
        const ping = await runSipp({ port: sipPort, scenario: "uac-options.xml" });
        expect(ping.code, ping.output).toBe(0);
      } finally {
        await owner().call(api.deleteSipIpWhitelist, { body: { ip: "127.0.0.0/8" } });
      }
    },
    within(30_000),
  );

  it("downloads a call's captures as text and as a pcap Wireshark reads (header and records parsed)", async () => {
    const { calls } = await owner().call(api.getSipCaptures, { query: {} });
    const sipCallId = calls.find((call) => call.refused)?.sipCallId as string;
    const token = world.members.o1Owner.token;
    const base = `/api/v2/sip/captures?token=${token}&targetAccountId=${world.accounts.O1.id}&sipCallId=${encodeURIComponent(sipCallId)}`;

    const text = await app.inject({ method: "GET", url: `${base}&format=text` });
    expect(text.statusCode).toBe(200);
    expect(text.headers["content-type"]).toMatch(/^text\/plain/);
    expect(text.body).toMatch(/^=== \S+ UDP 127\.0\.0\.1:\d+ -> 127\.0\.0\.1:\d+ \(received\)/);
    expect(text.body).toContain("SIP/2.0 403 Forbidden");

    const pcap = await app.inject({ method: "GET", url: `${base}&format=pcap` });
    expect(pcap.statusCode).toBe(200);
    expect(pcap.headers["content-type"]).toBe("application/vnd.tcpdump.pcap");
    expect(pcap.headers["content-disposition"]).toMatch(/attachment; filename="sip-capture-.*\.pcap"/);
    const file = pcap.rawPayload;
    expect(file.readUInt32LE(0)).toBe(0xa1b2c3d4);
    const { header, records } = readPcap(file);
    expect(header).toEqual({ versionMajor: 2, versionMinor: 4, snaplen: 262_144, linktype: 1 });
    expect(records.length).toBeGreaterThanOrEqual(2);
    const [invite, ...rest] = records;
    expect(invite?.payload.toString("utf8")).toMatch(/^INVITE sip:\d+@/);
    expect(invite).toMatchObject({
      ipVersion: 4,
      srcAddress: "127.0.0.1",
      dstAddress: "127.0.0.1",
      dstPort: sipPort,
    });
    expect(invite?.udpChecksumOk).toBe(true);
    const forbidden = rest.find((r) => r.payload.toString("utf8").startsWith("SIP/2.0 403"));
    expect(forbidden).toMatchObject({ srcPort: sipPort, dstPort: invite?.srcPort });
    // Times run forward from the INVITE.
    for (const record of rest) expect(record.at.getTime()).toBeGreaterThanOrEqual(invite?.at.getTime() ?? 0);
  });

  it("answers 404 for a call it has no capture of", async () => {
    await expectRefusal(
      owner().call(api.getSipCaptures, { query: { sipCallId: "nobody@nowhere" } }),
      404,
      api.SIP_MESSAGES.captureNotFound,
    );
  });

  it(
    "files a refused call to the organisation's phone number under that organisation's captures",
    async () => {
      if (!haveSipp) return console.warn(SIPP_MISSING);
      const { numbers } = await owner().call(api.searchNumbersByPrefix, {
        body: { prefix: "503", limit: 1 },
      });
      const number = numbers[0]?.number as string;
      await owner().call(api.assignPhoneNumber, { body: { number, agentId: world.accounts.A1.id } });
      const run = await runSipp({ port: sipPort, scenario: "uac", service: number, timeoutMs: 8000 });
      expect(run.output).toMatch(/403/);
      await sipSettings().recorder.flush();
      const captures = await waitUntil(
        () => owner().call(api.getSipCaptures, { query: {} }),
        (answer) => answer.calls.some((call) => call.requestUri.includes(`sip:${number}@`)),
      );
      expect(captures.calls.find((call) => call.requestUri.includes(number))).toMatchObject({
        finalStatus: 403,
        refused: true,
      });
      const other = await client(world.members.o2Owner.token, world.accounts.O2.id).call(api.getSipCaptures, {
        query: {},
      });
      expect(other.calls.some((call) => call.requestUri.includes(number))).toBe(false);
    },
    within(30_000),
  );

  it(
    "with SIP off, says so and refuses a registration before storing anything",
    async () => {
      expect((await owner().call(api.getSipRegistration, {})).sipEnabled).toBe(true);
      const off = await buildTestApp();
      try {
        const offWorld = await buildHierarchy(off);
        const offOwner = testClient(off)(offWorld.members.o1Owner.token, offWorld.accounts.O1.id);
        expect(await offOwner.call(api.getSipRegistration, {})).toEqual({
          success: true,
          registration: null,
          sipEnabled: false,
        });
        await expectRefusal(
          offOwner.call(api.saveSipRegistration, {
            body: {
              registration: { host: "127.0.0.1", username: "1001", agentId: offWorld.accounts.A1.id },
            },
          }),
          409,
          api.SIP_MESSAGES.sipOff,
        );
        expect((await offOwner.call(api.getSipRegistration, {})).registration).toBeNull();
      } finally {
        await off.close();
      }
    },
    within(60_000),
  );

  it(
    "registers with a sipp registrar (digest), refreshes before expiry, shows the state, and unregisters",
    async () => {
      const registrarPort = await freeUdpPort();
      const registrar = await startSippServer("registrar-uas.xml", registrarPort);
      try {
        await sleep(300);
        const saved = await owner().call(api.saveSipRegistration, {
          body: {
            registration: {
              host: "127.0.0.1",
              port: registrarPort,
              transport: "udp",
              username: "1001",
              password: "s3cret-pbx",
              domain: "pbx.test",
              expires: 120,
              agentId: world.accounts.A1.id,
            },
          },
        });
        expect(saved.registration).toMatchObject({
          state: "registering",
          password: "••••",
          username: "1001",
        });
        const registered = await waitUntil(
          () => owner().call(api.getSipRegistration, {}),
          (answer) => answer.registration?.state === "registered",
        );
        expect(registered.registration?.lastError).toBeNull();
        const firstAt = registered.registration?.registeredAt ?? 0;
        // The registrar granted 2 s: we register again before that runs out.
        const refreshed = await waitUntil(
          () => owner().call(api.getSipRegistration, {}),
          (answer) => (answer.registration?.registeredAt ?? 0) > firstAt,
          8000,
        );
        expect((refreshed.registration?.expiresAt ?? 0) - (refreshed.registration?.registeredAt ?? 0)).toBe(
          60_000,
        );
        expect(await owner().call(api.deleteSipRegistration, {})).toEqual({ success: true, deleted: 1 });
        const result = await registrar.exited;
        expect(result.code, result.output).toBe(0);
        expect(await owner().call(api.getSipRegistration, {})).toEqual({
          success: true,
          registration: null,
          sipEnabled: true,
        });

        // The REGISTERs are in the captures, their digest responses redacted.
        await sipSettings().recorder.flush();
        const { calls } = await owner().call(api.getSipCaptures, { query: {} });
        const register = calls.find((call) => call.method === "REGISTER");
        expect(register).toBeDefined();
        const messages = await owner().call(api.getSipCaptures, {
          query: { sipCallId: register?.sipCallId },
        });
        const authorized = messages.messages.filter((m) => /^Authorization:/m.test(m.text));
        expect(authorized.length).toBe(3);
        for (const m of authorized) {
          expect(m.text).toMatch(/response="\[redacted\]"/);
          expect(m.text).toMatch(/username="1001"/);
        }
        expect(messages.messages.some((m) => m.firstLine === "SIP/2.0 401 Unauthorized")).toBe(true);
      } finally {
        registrar.kill();
      }
    },
    within(45_000),
  );

  it("shows a refused registration as failed with the registrar's answer", async () => {
    // A registrar that refuses everyone: answers each REGISTER 403.
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve()));
    socket.on("message", (data, rinfo) => {
      const message = parseSipMessage(data);
      if (message.kind !== "request") return;
      const copy = (name: string) =>
        message.headers.filter(([n]) => n === name).map(([n, v]) => `${n}: ${v}`);
      const answer = [
        "SIP/2.0 403 Forbidden",
        ...copy("Via"),
        ...copy("From"),
        `${copy("To")[0]};tag=refuser`,
        ...copy("Call-ID"),
        ...copy("CSeq"),
        "Content-Length: 0",
        "",
        "",
      ].join("\r\n");
      socket.send(answer, rinfo.port, rinfo.address);
    });
    try {
      await owner().call(api.saveSipRegistration, {
        body: {
          registration: {
            host: "127.0.0.1",
            port: (socket.address() as { port: number }).port,
            username: "1001",
            password: "x",
            agentId: world.accounts.A1.id,
          },
        },
      });
      const failed = await waitUntil(
        () => owner().call(api.getSipRegistration, {}),
        (answer) => answer.registration?.state === "failed",
      );
      expect(failed.registration?.lastError).toBe("403 Forbidden");
      // An agent of another organisation cannot be named.
      await expectRefusal(
        owner().call(api.saveSipRegistration, {
          body: { registration: { host: "127.0.0.1", username: "1001", agentId: world.accounts.A2.id } },
        }),
        400,
        api.SIP_MESSAGES.agentNotFound,
      );
      await owner().call(api.deleteSipRegistration, {});
    } finally {
      socket.close();
    }
  });
});

describe("outbound routes", () => {
  it("adds, updates and lists routes with the password encrypted and never answered", async () => {
    const { route } = await owner().call(api.saveSipOutboundRoute, {
      body: {
        route: {
          name: "Main trunk",
          host: "sip.carrier.example",
          port: 5080,
          transport: "tcp",
          username: "acme",
          password: "trunk-pass-123",
          prefixes: ["+1", "+4420"],
        },
      },
    });
    expect(route).toMatchObject({
      name: "Main trunk",
      password: "••••",
      prefixes: ["+1", "+4420"],
      transport: "tcp",
    });
    const [stored] = await app.context.database.db
      .select()
      .from(sipOutboundRoutes)
      .where(eq(sipOutboundRoutes.id, route.id));
    expect(stored?.passwordEncrypted).toMatch(/^v1:/);
    expect(stored?.passwordEncrypted).not.toContain("trunk-pass-123");
    const listed = await owner().call(api.listSipOutboundRoutes, {});
    expect(JSON.stringify(listed)).not.toContain("trunk-pass-123");

    // Updating without a password keeps it; the UAC gets the route of the longest prefix, decrypted.
    await owner().call(api.saveSipOutboundRoute, {
      body: { route: { id: route.id, name: "Main", host: "sip.carrier.example", prefixes: ["+1"] } },
    });
    await owner().call(api.saveSipOutboundRoute, {
      body: { route: { name: "UK", host: "uk.carrier.example", prefixes: ["+44"] } },
    });
    const service = sipSettings().service;
    expect(await service.outboundRouteFor(world.accounts.O1.id, "+15035550100")).toMatchObject({
      host: "sip.carrier.example",
      port: 5060,
      password: "trunk-pass-123",
    });
    expect(await service.outboundRouteFor(world.accounts.O1.id, "+442071234567")).toMatchObject({
      host: "uk.carrier.example",
      password: null,
    });
    expect(await service.outboundRouteFor(world.accounts.O1.id, "+33123456789")).toBeNull();
    // What the outbound-call UAC is handed (its resolver, wired in app.ts).
    await owner().call(api.saveSipOutboundRoute, {
      body: {
        route: {
          name: "Local PBX",
          host: "127.0.0.1",
          port: 5099,
          username: "pbx",
          password: "pw",
          prefixes: ["+3312"],
        },
      },
    });
    expect(await sipSettings().trunkFor(world.accounts.O1.id, "+33123456789")).toEqual({
      host: "127.0.0.1",
      port: 5099,
      transport: "udp",
      credentials: { username: "pbx", password: "pw" },
    });
    expect(await service.outboundRouteFor(world.accounts.O2.id, "+15035550100")).toBeNull();

    await expectRefusal(
      owner().call(api.saveSipOutboundRoute, { body: { route: { name: "Internal", host: "10.1.2.3" } } }),
      400,
      api.SIP_MESSAGES.privateHost,
    );
    await expectRefusal(
      client(world.members.o2Owner.token, world.accounts.O2.id).call(api.deleteSipOutboundRoute, {
        body: { id: route.id },
      }),
      404,
      api.SIP_MESSAGES.routeNotFound,
    );
    expect(await owner().call(api.deleteSipOutboundRoute, { body: { id: route.id } })).toEqual({
      success: true,
      deleted: 1,
    });
  });
});

describe("capture retention", () => {
  it("the purge job deletes captures older than the retention period", async () => {
    const repo = sipSettings().service;
    const { calls } = await owner().call(api.getSipCaptures, { query: {} });
    expect(calls.length).toBeGreaterThan(0);
    // Age every capture past 72 hours, then run the purge.
    const { sipCaptureMessages } = await import("../../db/schema/index.ts");
    await app.context.database.db
      .update(sipCaptureMessages)
      .set({ at: new Date(Date.now() - 73 * 3600_000) });
    expect(await repo.purgeCaptures()).toBeGreaterThan(0);
    expect((await owner().call(api.getSipCaptures, { query: {} })).calls).toEqual([]);
  });
});
