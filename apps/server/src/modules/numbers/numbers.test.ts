import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent, putOnPlan } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { accounts, conversations as conversationsTable } from "../../db/schema/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { freeUdpPort, haveSipp, runSipp, SIPP, SIPP_MISSING } from "../voice/sip/sipp.ts";

/** What a recorded call (the default) opens with, before the agent's first words. */
const NOTICE = api.CALL_SETTINGS_DEFAULTS.recordingNotice;

/**
 * Phone numbers end to end on a listening app with SIP on: the sandbox marketplace (search by prefix,
 * locality and phrase; assign; release), texts to a bought number, bring-your-own with the forwarding
 * check, caller-ID verification, sipp calling an assigned number, and outbound calls to the sandbox
 * carrier's simulated callees and to a sipp UAS.
 */

// What the agent says to people who call it: never how it opens a call it places.
const GREETING = "Thank you for calling Ace Plumbing, how can I help you today?";
let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let sipPort: number;

beforeAll(async () => {
  sipPort = await freeUdpPort();
  app = await buildTestApp({ SIP_PORT: String(sipPort), HOST: "127.0.0.1", OUTBOUND_CALLS_CONCURRENT: "2" });
  await app.listen({ port: 0, host: "127.0.0.1" });
  world = await buildHierarchy(app);
  // Its numbers (bought, brought, called) are within what the Business plan includes.
  await putOnPlan(app, world.accounts.O1.id, "Business");
  await prepareSmsAgent(app, world, { number: "+15005550100", greeting: GREETING });
}, within(60_000));
afterAll(async () => {
  await app?.close();
});

const owner = () => testClient(app)(world.members.o1Owner.token, world.accounts.O1.id);
const otherOwner = () => testClient(app)(world.members.o2Owner.token, world.accounts.O2.id);
const agentRow = async (id: number) =>
  (await app.context.database.db.select().from(accounts).where(eq(accounts.id, id)))[0];

describe("the sandbox marketplace", () => {
  let bought: string;

  it("searches by area code, by locality and by vanity phrase (letters to keypad digits)", async () => {
    const byPrefix = await owner().call(api.searchNumbersByPrefix, { body: { prefix: "503", limit: 5 } });
    expect(byPrefix.numbers).toHaveLength(5);
    for (const n of byPrefix.numbers) {
      expect(n.number).toMatch(/^\+1503[2-9]\d{6}$/);
      expect(n).toMatchObject({ country: "US", region: "OR", locality: "Portland", provider: "sandbox" });
    }
    // The same search answers the same inventory.
    const again = await owner().call(api.searchNumbersByPrefix, { body: { prefix: "503", limit: 5 } });
    expect(again.numbers.map((n) => n.number)).toEqual(byPrefix.numbers.map((n) => n.number));

    const denver = await owner().call(api.searchNumbersByLocality, { body: { city: "denver", limit: 6 } });
    expect(denver.numbers.length).toBe(6);
    expect(new Set(denver.numbers.map((n) => n.number.slice(0, 5)))).toEqual(new Set(["+1303", "+1720"]));

    expect(api.phraseToDigits("FLOWERS")).toBe("3569377");
    const vanity = await owner().call(api.searchNumbersByPhrase, { body: { phrase: "FLOWERS", limit: 5 } });
    expect(vanity.numbers.length).toBeGreaterThan(0);
    for (const n of vanity.numbers) {
      expect(n.number.endsWith("3569377")).toBe(true);
      expect(n.vanity).toBe("FLOWERS");
    }
    await expectRefusal(
      owner().call(api.searchNumbersByPhrase, { body: { phrase: "A" } }),
      400,
      new RegExp(api.NUMBER_MESSAGES.badPhrase.replace(".", "\\.")),
    );
  });

  it("assigns a number to an agent: listed, the agent's number, gone from searches, not another's", async () => {
    const { numbers } = await owner().call(api.searchNumbersByPrefix, { body: { prefix: "503", limit: 1 } });
    bought = numbers[0]?.number as string;
    const answer = await owner().call(api.assignPhoneNumber, {
      body: { number: bought, agentId: world.accounts.A1.id },
    });
    expect(answer.phoneNumber).toMatchObject({
      number: bought,
      kind: "marketplace",
      provider: "sandbox",
      agentId: world.accounts.A1.id,
      locality: "Portland",
    });
    expect((await agentRow(world.accounts.A1.id))?.switchboardPhoneNumber).toBe(bought);
    const list = await owner().call(api.listPhoneNumbers);
    expect(list.numbers.map((n) => n.number)).toEqual([bought]);
    const after = await owner().call(api.searchNumbersByPrefix, { body: { prefix: "503", limit: 20 } });
    expect(after.numbers.map((n) => n.number)).not.toContain(bought);
    // Another organisation cannot take it, nor see it.
    await expectRefusal(
      otherOwner().call(api.assignPhoneNumber, { body: { number: bought, agentId: world.accounts.A2.id } }),
      409,
      api.NUMBER_MESSAGES.notAvailable,
    );
    expect((await otherOwner().call(api.listPhoneNumbers)).numbers).toEqual([]);
    // Nor assign one to an agent of another organisation.
    await expectRefusal(
      owner().call(api.assignPhoneNumber, {
        body: { number: "+15035550777", agentId: world.accounts.A2.id },
      }),
      404,
    );
  });

  it("texts to the bought number reach the agent (the same number calls and texts)", async () => {
    const sent = await owner().call(api.sandboxInboundSms, {
      body: { from: "+15415550142", to: bought, text: "Are you open today?" },
    });
    expect(sent.roomId).toBeTruthy();
  });

  it(
    "sipp calls the assigned number over SIP and reaches its agent",
    async () => {
      if (!haveSipp) return console.warn(SIPP_MISSING);
      const run = await runSipp({
        port: sipPort,
        scenario: "uac",
        service: bought,
        durationMs: 3000,
        timeoutMs: 30_000,
      });
      expect(run.code, run.output).toBe(0);
      const conversations = createConversationsRepository(app.context.database.db);
      const rooms = await app.context.database.db
        .select()
        .from(conversationsTable)
        .where(eq(conversationsTable.agentAccountId, world.accounts.A1.id));
      const call = rooms.find((c) => c.channel === "voice" && c.toAddress?.includes(bought));
      expect(call, JSON.stringify(rooms)).toBeTruthy();
      const messages = await conversations.conversationMessages(call?.uuid as string);
      // A recorded call (the default) opens with its recording notice, then the agent's greeting.
      const agentLines = messages.filter((m) => m.role === "assistant").map((m) => m.text);
      expect(agentLines[0], JSON.stringify(messages)).toBe(NOTICE);
      expect(agentLines[1], JSON.stringify(messages)).toContain("Ace Plumbing");
    },
    within(60_000),
  );

  it("releases the number: no longer listed, the agent has no number, and it is for sale again", async () => {
    const released = await owner().call(api.releasePhoneNumber, { body: { number: bought } });
    expect(released).toEqual({ success: true, released: bought });
    expect((await owner().call(api.listPhoneNumbers)).numbers).toEqual([]);
    expect((await agentRow(world.accounts.A1.id))?.switchboardPhoneNumber).toBeNull();
    const search = await owner().call(api.searchNumbersByPrefix, { body: { prefix: "503", limit: 20 } });
    expect(search.numbers.map((n) => n.number)).toContain(bought);
    await expectRefusal(
      owner().call(api.releasePhoneNumber, { body: { number: bought } }),
      404,
      api.NUMBER_MESSAGES.notFound,
    );
  });
});

describe("bring your own number and caller ID", () => {
  it("assigns a forwarded business number and confirms the forwarding test call arrived", async () => {
    const answer = await owner().call(api.assignByoNumber, {
      body: {
        number: "(541) 555-0188",
        method: "forwarding",
        carrier: "verizon",
        agentId: world.accounts.A1.id,
      },
    });
    expect(answer.phoneNumber).toMatchObject({
      number: "+15415550188",
      kind: "byo",
      byoMethod: "forwarding",
      carrier: "verizon",
      forwardingVerifiedAt: null,
    });
    const check = await owner().call(api.verifyCellForwarding, { body: { number: "+15415550188" } });
    expect(check).toMatchObject({ verified: true });
    const [row] = (await owner().call(api.listPhoneNumbers)).numbers;
    expect(row?.forwardingVerifiedAt).toBeGreaterThan(0);
    await expectRefusal(
      otherOwner().call(api.verifyCellForwarding, { body: { number: "+15415550188" } }),
      404,
      api.NUMBER_MESSAGES.notFound,
    );
  });

  it("verifies a caller ID with the code the call reads", async () => {
    const call = await owner().call(api.validateVerifiedNumber, {
      body: { phoneNumber: "+15035550142", listen: true },
    });
    expect(call.status).toBe("calling");
    const code = (call.spokenText ?? "").match(/code is ([\d, ]+)\./)?.[1]?.replace(/\D/g, "") ?? "";
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === "000000" ? "111111" : "000000";
    await expectRefusal(
      owner().call(api.validateVerifiedNumber, {
        body: { phoneNumber: "+15035550142", verificationCode: wrong },
      }),
      400,
      api.NUMBER_MESSAGES.codeWrong,
    );
    const ok = await owner().call(api.validateVerifiedNumber, {
      body: { phoneNumber: "+15035550142", verificationCode: code },
    });
    expect(ok.status).toBe("verified");
    expect(await app.numbers.numbers.isVerifiedCallerId(world.accounts.O1.id, "+15035550142")).toBe(true);
    expect(await app.numbers.numbers.isVerifiedCallerId(world.accounts.O2.id, "+15035550142")).toBe(false);
  });
});

describe("outbound calls", () => {
  const place = (to: string, variables?: Record<string, string>) =>
    app.numbers.outbound.place({
      organizationId: world.accounts.O1.id,
      agentAccountId: world.accounts.A1.id,
      to,
      ...(variables ? { variables } : {}),
    });
  const spoken = async (uuid: string | undefined) =>
    (await createConversationsRepository(app.context.database.db).conversationMessages(uuid ?? ""))
      .filter((m) => m.role === "assistant")
      .map((m) => m.text);
  /** "Hi, this is <agent> from <organisation>": the agent opens as the one calling. */
  const opening = async () => {
    const name = async (id: number) =>
      String(((await agentRow(id))?.details as { displayName?: string } | undefined)?.displayName);
    return `Hi, this is ${await name(world.accounts.A1.id)} from ${await name(world.accounts.O1.id)}`;
  };

  it(
    "a person answers: detected as a person within seconds, the agent speaks, stored with the call",
    async () => {
      await owner().call(api.setSandboxCallee, { body: { number: "+15035550161", behaviour: "person" } });
      const result = await place("+15035550161", { About: "your boiler service" });
      expect(result).toMatchObject({ outcome: "answered", answeredBy: "person" });
      expect(result.amdDecisionMs).toBeLessThan(4000);
      expect(result.conversation?.uuid).toBeTruthy();
      const conversations = createConversationsRepository(app.context.database.db);
      // The agent opens as the caller, with why it calls, not with its "Thank you for calling" greeting.
      expect((await spoken(result.conversation?.uuid)).slice(0, 2)).toEqual([
        NOTICE,
        `${await opening()}, calling about your boiler service.`,
      ]);
      const log = await conversations.findLog(result.conversation?.uuid as string);
      expect(log?.data).toMatchObject({ answeredBy: "person", outboundCallId: result.callId });
      const stored = await owner().call(api.getOutboundCall, { params: { callId: result.callId } });
      expect(stored.call).toMatchObject({
        status: "completed",
        outcome: "answered",
        answeredBy: "person",
        to: "+15035550161",
      });
      await expectRefusal(otherOwner().call(api.getOutboundCall, { params: { callId: result.callId } }), 404);
    },
    within(60_000),
  );

  it(
    "voicemail answers: detected as a machine, the agent leaves its message after the beep",
    async () => {
      await owner().call(api.setSandboxCallee, { body: { number: "+15035550162", behaviour: "voicemail" } });
      const result = await place("+15035550162");
      expect(result).toMatchObject({ outcome: "voicemail", answeredBy: "machine" });
      expect(result.amdDecisionMs).toBeLessThan(5000);
      // Without a voicemail message of its own, it leaves its outbound opening.
      expect(await spoken(result.conversation?.uuid)).toEqual([NOTICE, `${await opening()}.`]);
    },
    within(90_000),
  );

  it("busy and unanswered numbers end without a conversation", async () => {
    await owner().call(api.setSandboxCallee, { body: { number: "+15035550163", behaviour: "busy" } });
    expect(await place("+15035550163")).toMatchObject({ outcome: "busy" });
  });

  it("toll-fraud guards: only allowed countries, at most the concurrent limit", async () => {
    await expect(place("+442071838750")).rejects.toMatchObject({
      statusCode: 403,
      message: api.NUMBER_MESSAGES.countryNotAllowed,
    });
    await owner().call(api.setSandboxCallee, { body: { number: "+15035550164", behaviour: "no_answer" } });
    // Two calls ring (the limit in this test is 2); a third is refused.
    const first = await app.numbers.outbound.start({
      organizationId: world.accounts.O1.id,
      agentAccountId: world.accounts.A1.id,
      to: "+15035550164",
    });
    const second = await app.numbers.outbound.start({
      organizationId: world.accounts.O1.id,
      agentAccountId: world.accounts.A1.id,
      to: "+15035550164",
    });
    await expect(place("+15035550164")).rejects.toMatchObject({
      statusCode: 429,
      message: api.NUMBER_MESSAGES.concurrentLimit,
    });
    // Over the API, the same refusal.
    await expectRefusal(
      owner().call(api.placeOutboundCall, { body: { agentId: world.accounts.A1.id, to: "+15035550164" } }),
      429,
      api.NUMBER_MESSAGES.concurrentLimit,
    );
    await app.numbers.outbound.stop();
    void first;
    void second;
  });

  it(
    "dials a sipp UAS through a SIP trunk: answered, and the agent speaks into the call",
    async () => {
      if (!haveSipp) return console.warn(SIPP_MISSING);
      const uasPort = await freeUdpPort();
      const cwd = mkdtempSync(path.join(tmpdir(), "sipp-uas-"));
      const sipp = spawn(
        SIPP,
        [
          "-sn",
          "uas",
          "-i",
          "127.0.0.1",
          "-p",
          String(uasPort),
          "-m",
          "1",
          "-nostdin",
          "-timeout",
          "60s",
          "-trace_err",
        ],
        { cwd, stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      sipp.stdout.on("data", (chunk: Buffer) => (output = (output + chunk).slice(-5000)));
      sipp.stderr.on("data", (chunk: Buffer) => (output = (output + chunk).slice(-5000)));
      const exited = new Promise<number | null>((resolve) => sipp.on("exit", resolve));
      await new Promise((resolve) => setTimeout(resolve, 500));
      app.numbers.outbound.useTrunkResolver(async () => ({
        host: "127.0.0.1",
        port: uasPort,
        transport: "udp",
      }));
      try {
        const result = await place("+15035550170");
        expect(["answered", "voicemail"]).toContain(result.outcome);
        expect(result.answeredBy).toBeTruthy();
        expect((await spoken(result.conversation?.uuid)).slice(0, 2)).toEqual([
          NOTICE,
          `${await opening()}.`,
        ]);
        const stored = await owner().call(api.getOutboundCall, { params: { callId: result.callId } });
        expect(stored.call.route).toBe(`sip:127.0.0.1:${uasPort}`);
        expect(await exited, output).toBe(0);
      } finally {
        app.numbers.outbound.useTrunkResolver(async () => null);
        sipp.kill();
        rmSync(cwd, { recursive: true, force: true });
      }
    },
    within(90_000),
  );
});
