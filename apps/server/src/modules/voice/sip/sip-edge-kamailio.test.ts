// The SIP edge for several machines: Kamailio (scripts/sip-edge.mjs, deploy/kamailio/kamailio.cfg.tmpl) in
// front of two Switchboard instances, each with its own SIP port, dialled by sipp through the edge. On
// PostgreSQL (DATABASE_URL) both instances share one database, as in production, and the edge reads the
// allow-lists from it; on PGlite each has its own copy of the demo data and the edge is handed the lists.
// Needs Debian's kamailio (`node scripts/ensure-sip-edge.mjs`) and sipp (`node scripts/ensure-voice-tools.mjs`).
import dgram from "node:dgram";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApiClient } from "@switchboard/api";
import * as api from "@switchboard/api";
import { like, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AllowRow,
  addressList,
  dispatcherList,
  edgeSettings,
  KAMAILIO,
  renderConfig,
  type SipEdgeProcess,
  startSipEdge,
} from "../../../../../../scripts/sip-edge.mjs";
import { LOAD_FACTOR, within } from "../../../../../../vitest.time-limits.ts";
import { testClient } from "../../../../test/api-client.ts";
import { buildTestApp, createSharedTestDatabase, testConfig } from "../../../../test/helpers.ts";
import { demoFrontDesk } from "../../../../test/voice-fixtures.ts";
import { waitFor } from "../../../../test/wait-for.ts";
import { buildApp } from "../../../app.ts";
import { conversationLogs, conversations } from "../../../db/schema/index.ts";
import { WORKER_LOST_ERROR } from "../workers/supervisor.ts";
import { freeUdpPort, haveSipp, runSipp, SIPP_MISSING } from "./sipp.ts";

const haveKamailio = existsSync(KAMAILIO);
const missing = !haveKamailio
  ? "kamailio is not installed (Debian package kamailio): run `node scripts/ensure-sip-edge.mjs` as root"
  : !haveSipp
    ? SIPP_MISSING
    : null;
if (missing) console.warn(`Skipping the Kamailio SIP edge tests: ${missing}`);

/** The demo Front Desk agent's number (the sandbox carrier routes sip:<number>@host to it). */
const NUMBER = "+15035550123";
/** Callers: on the organisation's allow-list, allowed at the edge only, on no list. */
const LISTED = "127.0.0.2";
const EDGE_ONLY = "127.0.0.5";
const UNLISTED = "127.0.0.3";

type Target = { app: FastifyInstance; port: number; owner: ApiClient; stopped: boolean };

describe("the edge's files, from its settings", () => {
  const settings = edgeSettings({
    SIP_EDGE_TARGETS: "10.0.0.5:5070, 10.0.0.6,[2001:db8::9]:5080",
    SIP_EDGE_PORT: "5999",
    SIP_TRUST_LOOPBACK: "false",
    SIP_EDGE_ALLOW: "198.51.100.0/24",
    SIP_UNLISTED_RATE: "7",
  });

  it("lists every target in dispatcher set 1 (port 5060 when none is given)", () => {
    expect(
      dispatcherList(settings.targets)
        .split("\n")
        .filter((l) => l.startsWith("1 ")),
    ).toEqual(["1 sip:10.0.0.5:5070 0 0", "1 sip:10.0.0.6:5060 0 0", "1 sip:[2001:db8::9]:5080 0 0"]);
  });

  it("writes the allow-list as permissions records: single addresses, ranges, IPv6; loopback only when trusted", () => {
    const rows = [
      { orgId: 4, ip: "203.0.113.7" },
      { orgId: 4, ip: "203.0.113.0/24" },
      { orgId: 9, ip: "2001:db8::7" },
      { orgId: 9, ip: "203.0.113.7" },
    ];
    expect(
      addressList(settings, rows)
        .split("\n")
        .filter((l) => l.startsWith("1 ")),
    ).toEqual([
      "1 198.51.100.0 24 0 SIP_EDGE_ALLOW",
      "1 203.0.113.7 32 0 org-4",
      "1 203.0.113.0 24 0 org-4",
      "1 [2001:db8::7] 128 0 org-9",
    ]);
    const trusting = { ...settings, trustLoopback: true };
    expect(addressList(trusting, [])).toContain("1 127.0.0.0 8 0 loopback");
  });

  it("fills in the template and refuses settings it cannot use", () => {
    const config = renderConfig(settings);
    expect(config).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(config).toContain("listen=udp:127.0.0.1:5999");
    expect(config).toContain("> 7) {");
    expect(() => edgeSettings({})).toThrow(/SIP_EDGE_TARGETS must list/);
    expect(() => edgeSettings({ SIP_EDGE_TARGETS: "pbx.example:5060" })).toThrow(/not an IP address/);
    expect(() => edgeSettings({ SIP_EDGE_TARGETS: "10.0.0.5:70000" })).toThrow(/not an IP address/);
  });
});

describe.skipIf(missing !== null)("the Kamailio SIP edge in front of two Switchboard instances", () => {
  const shared: { db: Awaited<ReturnType<typeof createSharedTestDatabase>> | null } = { db: null };
  const targets: Target[] = [];
  let edge: SipEdgeProcess;
  let edgePort: number;
  let runDir: string;
  let reloads = 0;

  /** One Switchboard instance answering SIP on its own port; it trusts the edge (127.0.0.1) as a proxy. */
  async function startTarget(): Promise<Target> {
    const port = await freeUdpPort();
    const env = {
      DEMO_DATA: "true",
      HOST: "127.0.0.1",
      SIP_PORT: String(port),
      SIP_TRUST_LOOPBACK: "false",
      SIP_TRUSTED_EDGE: "127.0.0.1",
    };
    const app = shared.db
      ? await buildApp(testConfig(env), { database: await shared.db.open() })
      : await buildTestApp(env);
    const { ownerToken, orgId } = await demoFrontDesk(app);
    const owner = testClient(app)(ownerToken, orgId);
    return { app, port, owner, stopped: false };
  }

  /** The allow-list rows of the targets' organisations, as the Developers page shows them. */
  async function allowRows(): Promise<AllowRow[]> {
    const rows: AllowRow[] = [];
    for (const target of targets) {
      const { orgId } = await demoFrontDesk(target.app);
      const list = await target.owner.call(api.listSipIpWhitelist, {});
      rows.push(...list.map((entry) => ({ orgId, ip: entry.ip })));
    }
    return rows;
  }

  /** Adds an allow-list entry on every target's organisation (once on a shared database). */
  async function allow(ip: string) {
    for (const target of shared.db ? targets.slice(0, 1) : targets)
      await target.owner.call(api.addSipIpWhitelist, { body: { ip, label: "edge test" } });
  }

  beforeAll(async () => {
    if (process.env.DATABASE_URL) shared.db = await createSharedTestDatabase();
    // One after the other: the first seeds a shared database, the second finds it seeded.
    targets.push(await startTarget());
    targets.push(await startTarget());
    await allow(LISTED);
    edgePort = await freeUdpPort();
    runDir = mkdtempSync(path.join(tmpdir(), "sip-edge-"));
    const settings = edgeSettings({
      SIP_EDGE_HOST: "127.0.0.1",
      SIP_EDGE_PORT: String(edgePort),
      SIP_EDGE_TARGETS: targets.map((t) => `127.0.0.1:${t.port}`).join(","),
      SIP_EDGE_PING_SECONDS: "1",
      // Room for a loaded machine: a live instance may take a while to say 100 Trying.
      SIP_EDGE_TARGET_TIMEOUT_MS: "2000",
      SIP_EDGE_RUN_DIR: runDir,
      SIP_TRUST_LOOPBACK: "false",
      SIP_EDGE_ALLOW: EDGE_ONLY,
      DATABASE_URL: shared.db?.env.DATABASE_URL ?? "",
    });
    edge = await startSipEdge(settings, {
      // On PGlite the edge cannot read the database: it is handed the lists.
      ...(shared.db ? {} : { rows: await allowRows() }),
      onReload: () => reloads++,
    });
  }, within(120_000));

  afterAll(async () => {
    await edge?.stop();
    for (const target of targets.filter((t) => !t.stopped)) await target.app.close();
    await shared.db?.drop();
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  }, within(60_000));

  /** The SIP port of the instance that took each call (the captures of the calls' organisations). */
  async function landings(): Promise<Map<string, number>> {
    const byCall = new Map<string, number>();
    for (const target of targets.filter((t) => !t.stopped)) {
      const { calls } = await target.owner.call(api.getSipCaptures, { query: {} });
      for (const call of calls) {
        if (byCall.has(call.sipCallId) || call.method !== "INVITE") continue;
        const { messages } = await target.owner.call(api.getSipCaptures, {
          query: { sipCallId: call.sipCallId },
        });
        const invite = messages.find((m) => m.direction === "in" && m.firstLine.startsWith("INVITE"));
        const answered = messages.some((m) => m.direction === "out" && m.firstLine === "SIP/2.0 200 OK");
        if (invite && answered) byCall.set(call.sipCallId, Number(invite.to.split(":").pop()));
      }
    }
    return byCall;
  }

  /** One INVITE from `from` through the edge: the final status and who answered it (Server header). */
  async function inviteFrom(from: string): Promise<{ status: number; server: string }> {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, from, resolve));
    const port = socket.address().port;
    const branch = `z9hG4bK${Math.random().toString(36).slice(2)}`;
    const tag = Math.random().toString(36).slice(2);
    const callId = `${tag}@edge-test`;
    const sdp = `v=0\r\no=- 1 1 IN IP4 ${from}\r\ns=-\r\nc=IN IP4 ${from}\r\nt=0 0\r\nm=audio ${port + 2} RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n`;
    const invite = [
      `INVITE sip:${NUMBER}@127.0.0.1:${edgePort} SIP/2.0`,
      `Via: SIP/2.0/UDP ${from}:${port};branch=${branch};rport`,
      "Max-Forwards: 70",
      `From: <sip:caller@${from}>;tag=${tag}`,
      `To: <sip:${NUMBER}@127.0.0.1>`,
      `Call-ID: ${callId}`,
      "CSeq: 1 INVITE",
      `Contact: <sip:caller@${from}:${port}>`,
      "Content-Type: application/sdp",
      `Content-Length: ${Buffer.byteLength(sdp)}`,
      "",
      sdp,
    ].join("\r\n");
    try {
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no final answer to an INVITE from ${from}`)), 8000);
        socket.on("message", (data) => {
          const text = data.toString("utf8");
          const status = Number(/^SIP\/2\.0 (\d{3})/.exec(text)?.[1] ?? 0);
          if (status < 200) return;
          clearTimeout(timer);
          resolve({ status, server: /^Server: *(.*)$/im.exec(text)?.[1]?.trim() ?? "" });
        });
        socket.send(invite, edgePort, "127.0.0.1");
      });
    } finally {
      socket.close();
    }
  }

  /** sipp through a proxy: a 180 relayed after the 200 is ignored, a call without its answers fails in 20 s. */
  const PROXIED = ["-default_behaviors", "all,-abortunexp", "-recv_timeout", "20000"];
  const dial = (calls: number, holdMs: number) =>
    runSipp({
      port: edgePort,
      localIp: LISTED,
      scenario: "uac-proxied.xml",
      service: NUMBER,
      calls,
      limit: calls,
      rate: 10,
      durationMs: holdMs,
      timeoutMs: 30_000,
      extra: PROXIED,
    });

  it(
    "spreads new calls over both instances; every call is answered and hung up through the edge",
    async () => {
      const before = await landings();
      const run = await dial(6, 1500);
      expect(run.code, run.output).toBe(0);
      const landed = await waitFor(landings, (found) => found.size >= before.size + 6, 20_000);
      const fresh = [...landed].filter(([callId]) => !before.has(callId)).map(([, port]) => port);
      expect(fresh).toHaveLength(6);
      // Round robin over two targets: three calls each.
      for (const target of targets) expect(fresh.filter((port) => port === target.port)).toHaveLength(3);
    },
    within(60_000),
  );

  it(
    "takes a caller over TCP and relays the call to an instance over UDP",
    async () => {
      const run = await runSipp({
        port: edgePort,
        localIp: LISTED,
        scenario: "uac-proxied.xml",
        service: NUMBER,
        calls: 2,
        rate: 10,
        durationMs: 500,
        timeoutMs: 20_000,
        transport: "t1",
        extra: PROXIED,
      });
      expect(run.code, run.output).toBe(0);
    },
    within(30_000),
  );

  it(
    "refuses a caller on no allow-list at the edge; an instance checks its organisation's list against the real caller",
    async () => {
      // On no list: the edge answers 403 itself, and no instance sees the INVITE.
      expect(await inviteFrom(UNLISTED)).toEqual({ status: 403, server: "Switchboard SIP edge" });
      // Allowed at the edge (SIP_EDGE_ALLOW) but not on the organisation's list: the instance refuses it,
      // because it sees 127.0.0.5 (vouched for by the edge it trusts), not the edge's own 127.0.0.1.
      expect(await inviteFrom(EDGE_ONLY)).toEqual({ status: 403, server: "Switchboard" });
    },
    within(30_000),
  );

  it(
    "takes a new allow-list entry from the Developers page's settings without a restart",
    async () => {
      const NEW = "127.0.0.4";
      expect((await inviteFrom(NEW)).status).toBe(403);
      const before = reloads;
      await allow(NEW);
      // PostgreSQL: the edge follows the settings' notifications; PGlite: it is handed the lists again.
      if (!shared.db) await edge.reload(await allowRows());
      await waitFor(
        async () => reloads,
        (n) => n > before,
        10_000,
      );
      expect(reloads).toBeGreaterThan(before);
      const run = await runSipp({
        port: edgePort,
        localIp: NEW,
        scenario: "uac-proxied.xml",
        service: NUMBER,
        calls: 1,
        durationMs: 500,
        timeoutMs: 20_000,
        extra: PROXIED,
      });
      expect(run.code, run.output).toBe(0);
    },
    within(60_000),
  );

  it(
    "with one instance stopped, new calls land on the other with no failure, and the edge marks it down",
    async () => {
      const [kept, stopped] = targets as [Target, Target];
      stopped.stopped = true;
      await stopped.app.close();
      const before = await landings();
      // At once, before any probe noticed: an INVITE the stopped one does not answer goes to the next target.
      const run = await dial(6, 500);
      expect(run.code, run.output).toBe(0);
      const landed = await waitFor(landings, (found) => found.size >= before.size + 6, 20_000);
      const fresh = [...landed].filter(([callId]) => !before.has(callId)).map(([, port]) => port);
      expect(fresh).toEqual(Array(6).fill(kept.port));
      // The OPTIONS probes (every second) mark the stopped target inactive.
      const state = await waitFor(
        async () => edge.command("dispatcher.list"),
        (text) => new RegExp(`sip:127\\.0\\.0\\.1:${stopped.port}\\s+FLAGS: I`).test(text),
        10_000,
      );
      expect(state).toMatch(new RegExp(`sip:127\\.0\\.0\\.1:${stopped.port}\\s+FLAGS: I`));
      expect(state).toMatch(new RegExp(`sip:127\\.0\\.0\\.1:${kept.port}\\s+FLAGS: A`));
    },
    within(90_000),
  );
});

describe.skipIf(missing !== null)("the Kamailio SIP edge in front of one server's voice workers", () => {
  // The killed worker's calls fail at their BYE; the others must not, even on a loaded machine.
  const PROXIED_SLOW = ["-default_behaviors", "all,-abortunexp", "-recv_timeout", "20000"];
  let app: FastifyInstance;
  let owner: ApiClient;
  let edge: SipEdgeProcess;
  let edgePort: number;
  let workerPort: number;
  let runDir: string;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const workers = () => app.context.voiceWorkers?.state() ?? [];

  beforeAll(async () => {
    // Workers on ports of their own (VOICE_WORKER_SIP_PORT + i), which the edge dispatches to.
    workerPort = await freeUdpPort();
    app = await buildTestApp({
      DEMO_DATA: "true",
      HOST: "127.0.0.1",
      VOICE_WORKERS: "2",
      VOICE_WORKER_SIP_PORT: String(workerPort),
      SIP_TRUST_LOOPBACK: "false",
      SIP_TRUSTED_EDGE: "127.0.0.1",
    });
    const demo = await demoFrontDesk(app);
    owner = testClient(app)(demo.ownerToken, demo.orgId);
    await owner.call(api.addSipIpWhitelist, { body: { ip: LISTED, label: "edge test" } });
    await waitFor(
      async () => workers(),
      (list) => list.length === 2 && list.every((w) => w.state === "up"),
      60_000,
    );
    edgePort = await freeUdpPort();
    runDir = mkdtempSync(path.join(tmpdir(), "sip-edge-workers-"));
    edge = await startSipEdge(
      edgeSettings({
        SIP_EDGE_HOST: "127.0.0.1",
        SIP_EDGE_PORT: String(edgePort),
        SIP_EDGE_TARGETS: `127.0.0.1:${workerPort},127.0.0.1:${workerPort + 1}`,
        SIP_EDGE_PING_SECONDS: "1",
        // Workers on a loaded machine may take a while to say 100 Trying: not taken for dead (on CI longer,
        // still well inside the callers' 20 s wait, so a call the killed worker took fails over in time).
        SIP_EDGE_TARGET_TIMEOUT_MS: LOAD_FACTOR > 1 ? "8000" : "3000",
        // A call the killed worker took but had not answered yet goes to the other one.
        SIP_EDGE_ANSWER_TIMEOUT_MS: "4000",
        SIP_EDGE_RUN_DIR: runDir,
        SIP_TRUST_LOOPBACK: "false",
      }),
      { rows: [{ orgId: demo.orgId, ip: LISTED }], follow: false },
    );
  }, within(120_000));

  afterAll(async () => {
    await edge?.stop();
    await app?.close();
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  }, within(60_000));

  it(
    "spreads calls over the workers; a worker killed mid-run loses no new call, and its calls are logged once as failed",
    async () => {
      const [, doomed] = workers();
      // What an earlier try of this test left (a retry runs on the same app) is not this run's.
      const db = app.context.database.db;
      const lostQuery = () =>
        db
          .select({ uuid: conversationLogs.uuid, callId: conversationLogs.callId })
          .from(conversationLogs)
          .where(sql`${conversationLogs.data}->>'error' = ${WORKER_LOST_ERROR}`);
      const callsQuery = () =>
        db
          .select({ callId: conversations.callId })
          .from(conversations)
          .where(like(conversations.callId, `%@${LISTED}`));
      const lostBefore = new Set((await lostQuery()).map((row) => row.uuid));
      const callsBefore = new Set((await callsQuery()).map((row) => row.callId));
      // 12 calls at 4 a second, each held 3 s; the second worker is killed 1.6 s in, with calls on it.
      const running = runSipp({
        port: edgePort,
        localIp: LISTED,
        scenario: "uac-proxied.xml",
        service: NUMBER,
        calls: 12,
        limit: 12,
        rate: 4,
        durationMs: 3000,
        timeoutMs: 60_000,
        extra: PROXIED_SLOW,
      });
      const carried = await waitFor(
        async () => workers().map((w) => w.calls),
        (calls) => calls.every((n) => n > 0),
        10_000,
      );
      expect(
        carried.every((n) => n > 0),
        `calls per worker: ${carried.join(", ")}`,
      ).toBe(true);
      await sleep(400);
      // Killed while it carries calls (on a loaded machine its first calls may have ended by now).
      const onDoomed = await waitFor(
        async () => workers()[1]?.calls ?? 0,
        (n) => n > 0,
        10_000,
      );
      // Counted from here: a retry of this test meets the worker its first try restarted.
      const restartsBefore = workers()[1]?.restarts ?? 0;
      process.kill(doomed?.pid ?? 0, "SIGKILL");
      const run = await running;
      // The calls the killed worker carried ended with it, each logged once as failed by the API process
      // (at most its half of the calls, and one on its way).
      const lost = await waitFor(
        async () => (await lostQuery()).filter((row) => !lostBefore.has(row.uuid)),
        (rows) => rows.length >= Math.max(1, onDoomed),
        20_000,
      );
      expect(lost.length).toBeGreaterThan(0);
      expect(lost.length).toBeLessThanOrEqual(7);
      expect(new Set(lost.map((row) => row.callId)).size).toBe(lost.length);
      // Every call was answered by a worker, none lost at set-up: each has its conversation, or (killed
      // before it had one: a worker tells the API process of a call before answering it) its failed log row.
      const answered = await waitFor(
        async () => {
          const rows = (await callsQuery()).filter((row) => !callsBefore.has(row.callId));
          return new Set([...rows, ...lost].map((row) => row.callId));
        },
        (callIds) => callIds.size >= 12,
        20_000,
      );
      expect(answered.size, run.output).toBe(12);
      const invitesAnswered = /200 <-+\s+E-RTD1\s+(\d+)/.exec(run.output)?.[1];
      if (invitesAnswered !== undefined) expect(Number(invitesAnswered), run.output).toBe(12);
      // The edge took the killed worker out; the API process started it again.
      await waitFor(
        async () => workers(),
        (list) => list[1]?.state === "up" && list[1]?.pid !== doomed?.pid,
        30_000,
      );
      expect(workers()[1]?.restarts).toBe(restartsBefore + 1);
    },
    within(120_000),
  );
});
