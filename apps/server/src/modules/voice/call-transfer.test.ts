// Transfers and the keypad over real SIP on loopback (the test user agent as the caller) and the sandbox
// carrier (the transfer destinations, the phone menu), with a scripted model deciding what the agent does.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import {
  type ModelReply,
  type RecordedRequest,
  startModelServer,
} from "../../../test/model-protocol-server.ts";
import { dialSip, type SipTestCall, type SipTestUaOptions } from "../../../test/sip-test-ua.ts";
import { concat, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { waitFor } from "../../../test/wait-for.ts";
import { createDtmfDetector } from "../../audio/dtmf.ts";
import { toFrames } from "../../audio/pcm.ts";
import { conversationLogs } from "../../db/schema/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { sandboxIvrRuns } from "../numbers/sandbox-callee.ts";
import { startSipServer } from "./sip/sip-server.ts";
import { freeUdpPort } from "./sip/sipp.ts";

const SALES = "+15035550111";
const NOBODY = "+15035550112";
const MENU = "+15035550113";
/** The agent's transfer destinations (a test that changes them puts these back). */
const DESTINATIONS = [
  { name: "sales", to: SALES, hours: null, ringSeconds: 5 },
  { name: "the on-call vet", to: NOBODY, hours: null, ringSeconds: 1 },
];

let app: FastifyInstance;
let agentId: number;
let orgId: number;
let sipPort: number;
let model: Awaited<ReturnType<typeof startModelServer>>;
let owner: ReturnType<ReturnType<typeof testClient>>;
/** What the agent does on each caller turn (the last user message's text), and after its tools ran. */
let plan: (said: string, request: RecordedRequest) => ModelReply = () => ({ text: "Okay." });

beforeAll(async () => {
  sipPort = await freeUdpPort();
  app = await buildTestApp({
    SIP_PORT: String(sipPort),
    HOST: "127.0.0.1",
    // The model server and the SIP destinations of these tests are on loopback.
    OUTBOUND_ALLOWLIST: "127.0.0.1:*",
  });
  const world = await buildHierarchy(app);
  agentId = world.accounts.A1.id;
  orgId = world.accounts.O1.id;
  owner = testClient(app)(world.members.o1Owner.token);
  model = await startModelServer((request) => {
    // Requests without tools are not the call's turns (the post-call analysis): nothing to do there.
    if (!(request.body.tools ?? []).length) return { text: "{}" };
    const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
    const last = messages.at(-1);
    if (last?.role === "tool") return { text: "Done." };
    const said = [...messages].reverse().find((m) => m.role === "user");
    return plan(
      typeof said?.content === "string" ? said.content : JSON.stringify(said?.content ?? ""),
      request,
    );
  });
  await owner.call(api.saveModelSettings, {
    body: { provider: "openai", baseUrl: model.url, model: "scripted", apiKey: "sk-test-0000000000000000" },
  });
  await owner.call(api.saveCampaign, {
    body: {
      agentId,
      agentInstructions: "You answer the phone for Acme.",
      greeting: "Acme, hello.",
      timezone: "America/Los_Angeles",
      apps: [
        { appId: "call-transfer", version: "1.0.0" },
        { appId: "keypad", version: "1.0.0" },
        { appId: "webhook", version: "1.0.0" },
      ],
      enabledFunctions: {
        "call-transfer@1.0.0": ["transferCall"],
        "webhook@1.0.0": ["callWebhook"],
        "keypad@1.0.0": ["sendDtmf", "collectDigits"],
      },
    },
  });
  await owner.call(api.publishAgent, { body: { agentId } });
  await owner.call(api.saveCallSettings, {
    body: {
      agentId,
      transferDestinations: DESTINATIONS,
    },
  });
  await owner.call(api.setSandboxCallee, { body: { number: NOBODY, behaviour: "no_answer" } });
  await owner.call(api.setSandboxCallee, { body: { number: MENU, behaviour: "ivr" } });
}, within(120_000));
afterAll(async () => {
  await app?.close();
  await model?.close();
});
beforeEach(() => {
  plan = () => ({ text: "Okay." });
});

const tool = (name: string, args: Record<string, unknown>): ModelReply => ({
  text: "One moment.",
  toolCalls: [{ name, arguments: args }],
});

/** The agent's first words have reached the caller (the greeting is being played). */
async function heardGreeting(call: SipTestCall) {
  let loud = 0;
  call.onFrame((frame) => {
    if (frame.some((s) => Math.abs(s) > 1000)) loud++;
  });
  await waitFor(
    async () => loud,
    (n) => n > 10,
    10_000,
  );
}

async function logOf(callId: string) {
  const read = async () =>
    (
      await app.context.database.db.select().from(conversationLogs).where(eq(conversationLogs.callId, callId))
    )[0];
  return waitFor(
    read,
    (row) => typeof (row?.data as { callOutcome?: string } | undefined)?.callOutcome === "string",
    30_000,
  );
}

/** The call's conversation uuid, once its log row is written (at the call's start). */
async function logUuidOf(callId: string): Promise<string> {
  const uuid = await waitFor(
    async () =>
      (
        await app.context.database.db
          .select()
          .from(conversationLogs)
          .where(eq(conversationLogs.callId, callId))
      )[0]?.uuid,
    Boolean,
  );
  if (!uuid) throw new Error(`no log row for call ${callId}`);
  return uuid;
}

async function transcript(uuid: string) {
  const messages = await createConversationsRepository(app.context.database.db).conversationMessages(uuid);
  return messages.map((m) => `${m.role}: ${m.text}`);
}

async function call(options: Partial<SipTestUaOptions> = {}) {
  const ua = await dialSip({ port: sipPort, user: String(agentId), ...options });
  await heardGreeting(ua);
  return ua;
}

describe("cold transfers", () => {
  it(
    "asks a far end that allows REFER to call the destination, and hangs up once it answered",
    async () => {
      plan = (said) =>
        said.includes("pressed 1")
          ? tool("transferCall", { destination: "Sales", mode: "cold" })
          : { text: "Hm." };
      const ua = await call({ allow: "INVITE, ACK, CANCEL, BYE, OPTIONS, REFER, NOTIFY" });
      await ua.pressKey("1");
      await Promise.race([ua.ended, new Promise((r) => setTimeout(r, 20_000))]);
      const refer = ua.requests.find((r) => r.method === "REFER");
      expect(refer?.headers["refer-to"]).toBe(`<tel:${SALES}>`);
      expect(ua.requests.at(-1)?.method).toBe("BYE");
      const log = await logOf(ua.callId);
      expect(log?.transfer).toBe("1");
      expect(log?.data).toMatchObject({
        callOutcome: "transferred",
        transferResult: "answered",
        transfers: [
          {
            destination: "sales",
            to: SALES,
            mode: "cold",
            result: "answered",
            legs: [{ kind: "refer", result: "answered", status: 200 }],
          },
        ],
      });
      const lines = await transcript(log?.uuid as string);
      expect(
        lines.some((l) => l.startsWith(`system: Transfer to sales (${SALES}, cold, by SIP REFER): answered`)),
      ).toBe(true);
    },
    within(40_000),
  );

  it(
    "bridges a new leg to the destination when the far end does not allow REFER: the caller hears the person",
    async () => {
      plan = (said) =>
        said.includes("pressed 1")
          ? tool("transferCall", { destination: "sales", mode: "cold" })
          : { text: "Hm." };
      const ua = await call();
      await ua.pressKey("1");
      // Once the destination answered (the transcript's note), what the caller hears is the sandbox person's
      // "Hello?" through the bridge: the agent's own words were played before.
      let loudAfter = 0;
      let bridged = false;
      ua.onFrame((frame) => {
        if (bridged && frame.some((v) => Math.abs(v) > 1000)) loudAfter++;
      });
      const uuid = await logUuidOf(ua.callId);
      await waitFor(
        () => transcript(uuid),
        (lines) => lines.some((l) => l.startsWith("system: Transfer to sales")),
        15_000,
      );
      bridged = true;
      await waitFor(
        async () => loudAfter,
        (n) => n > 5,
        5_000,
      );
      expect(loudAfter).toBeGreaterThan(5);
      // The sandbox person's words, which its line tells, are in the transcript under the destination's name.
      await waitFor(
        () => transcript(uuid),
        (lines) => lines.includes("system: sales: Hello?"),
        5_000,
      );
      // The model was told the destinations by name, with the transfer tool.
      const transferTool = model.requests
        .flatMap(
          (r) =>
            (r.body.tools ?? []) as {
              function?: {
                name: string;
                description: string;
                parameters: { properties: { destination: { examples?: string[] } } };
              };
            }[],
        )
        .find((t) => t.function?.name === "transferCall")?.function;
      expect(transferTool?.description).toContain(
        `This agent's transfer destinations: "sales", "the on-call vet".`,
      );
      expect(transferTool?.parameters.properties.destination.examples).toEqual(["sales", "the on-call vet"]);
      const logRow = logOf(ua.callId);
      await ua.hangup();
      const log = await logRow;
      expect(ua.requests.some((r) => r.method === "REFER")).toBe(false);
      expect(log?.transfer).toBe("1");
      expect(log?.data).toMatchObject({
        callOutcome: "transferred",
        transfers: [{ mode: "cold", result: "answered", legs: [{ kind: "dial", result: "answered" }] }],
      });
      const transfer = (
        log?.data as { transfers?: { setupMs: number; bridgedSeconds: number }[] } | undefined
      )?.transfers?.[0];
      expect(transfer?.setupMs ?? -1).toBeGreaterThanOrEqual(0);
      expect(transfer?.bridgedSeconds ?? 0).toBeGreaterThan(0);
    },
    within(40_000),
  );
});

describe("a transfer to a SIP address", () => {
  it(
    "bridges a destination that speaks: the caller hears it, it hears the caller, and its words are captioned",
    async () => {
      const greeting = toFrames(concat(silence(800), await spokenFixture("Support, this is Sam speaking.")));
      const question = toFrames(concat(await spokenFixture("Do you see children?"), silence(400)));
      // The destination: a SIP phone on loopback (this project's SIP server) that answers, then speaks.
      let heardCaller = 0;
      const phone = await startSipServer({
        host: "127.0.0.1",
        port: 0,
        onCall: (leg) => {
          leg.onAudio((frame) => {
            if (frame.some((v) => Math.abs(v) > 1000)) heardCaller++;
          });
          for (const frame of greeting) leg.sendAudio(frame);
          return undefined;
        },
      });
      const support = {
        name: "support",
        to: `sip:support@127.0.0.1:${phone.port}`,
        hours: null,
        ringSeconds: 5,
      };
      const settings = { agentId, transferDestinations: [support] };
      try {
        await owner.call(api.saveCallSettings, { body: settings });
        plan = (said) =>
          said.includes("pressed 2")
            ? tool("transferCall", { destination: "support", mode: "cold" })
            : { text: "Hm." };
        const ua = await call();
        await ua.pressKey("2");
        const uuid = await logUuidOf(ua.callId);
        await waitFor(
          () => transcript(uuid),
          (lines) => lines.some((l) => l.startsWith("system: Transfer to support")),
          15_000,
        );
        let loud = 0;
        ua.onFrame((frame) => {
          if (frame.some((v) => Math.abs(v) > 1000)) loud++;
        });
        ua.say(question);
        // Both ways: the caller hears the person, the person hears the caller's question.
        await waitFor(
          async () => Math.min(loud, heardCaller),
          (n) => n > 10,
          10_000,
        );
        expect(loud).toBeGreaterThan(10);
        expect(heardCaller).toBeGreaterThan(10);
        // The line tells no words: what the person said is recognised and kept under the destination's name.
        const lines = await waitFor(
          () => transcript(uuid),
          (found) => found.some((l) => /^system: support: \S/.test(l)),
          15_000,
        );
        expect(lines.filter((l) => l.startsWith("system: support: "))).not.toEqual([]);
        const logRow = logOf(ua.callId);
        await ua.hangup();
        const log = await logRow;
        expect(log?.data).toMatchObject({
          callOutcome: "transferred",
          transfers: [
            {
              destination: "support",
              to: support.to,
              result: "answered",
              legs: [{ kind: "dial", to: support.to, result: "answered" }],
            },
          ],
        });
      } finally {
        await owner.call(api.saveCallSettings, {
          body: {
            agentId,
            transferDestinations: DESTINATIONS,
          },
        });
        await phone.close();
      }
    },
    within(60_000),
  );
});

describe("warm transfers", () => {
  it(
    "says the summary to the person who answers, then joins the caller",
    async () => {
      plan = (said) =>
        said.includes("pressed 2")
          ? tool("transferCall", {
              destination: "sales",
              mode: "warm",
              summary: "A caller wants a quote for ten chairs.",
            })
          : { text: "Hm." };
      const ua = await call();
      await ua.pressKey("2");
      // The sandbox person leaves after a quiet spell on the bridged call; the call ends as transferred.
      await Promise.race([ua.ended, new Promise((r) => setTimeout(r, 25_000))]);
      const log = await logOf(ua.callId);
      expect(log?.transfer).toBe("1");
      expect(log?.data).toMatchObject({
        callOutcome: "transferred",
        transfers: [{ mode: "warm", result: "answered", legs: [{ kind: "dial", result: "answered" }] }],
      });
      // The caller's whole wait: from the decision, past the ringing and the summary said to the person.
      const [warm] =
        (log?.data as { transfers?: { decisionMs: number; connectedMs: number }[] } | undefined)?.transfers ??
        [];
      expect(warm?.connectedMs).toBeGreaterThan(warm?.decisionMs ?? Number.POSITIVE_INFINITY);
      const lines = await transcript(log?.uuid as string);
      expect(lines).toContain("system: Said to sales: A caller wants a quote for ten chairs.");
      expect(
        lines.some((l) => l.startsWith(`system: Transfer to sales (${SALES}, warm, bridged): answered`)),
      ).toBe(true);
    },
    within(40_000),
  );

  it(
    "tells the caller when nobody answers in time and goes on; the metric does not count it",
    async () => {
      plan = (said) =>
        said.includes("pressed 3")
          ? tool("transferCall", { destination: "the on-call vet", mode: "warm" })
          : { text: "Noted." };
      const ua = await call();
      await ua.pressKey("3");
      const uuid = await logUuidOf(ua.callId);
      const told = await waitFor(
        () => transcript(uuid),
        (lines) => lines.some((l) => l.includes("did not answer")),
        15_000,
      );
      expect(told).toContain(
        "assistant: I'm sorry, on-call vet did not answer. Can I take a message for them?".replace(
          "on-call vet",
          "the on-call vet",
        ),
      );
      await ua.hangup();
      const log = await logOf(ua.callId);
      expect(log?.transfer).toBe("0");
      expect(log?.data).toMatchObject({
        callOutcome: "caller-hangup",
        transferResult: "no_answer",
        transfers: [
          {
            destination: "the on-call vet",
            result: "no_answer",
            legs: [{ kind: "dial", result: "no_answer" }],
          },
        ],
      });
      // Calls Transferred counts the completed transfers of this organisation's calls only.
      const rows = await app.context.database.db
        .select()
        .from(conversationLogs)
        .where(eq(conversationLogs.accountId, orgId));
      const completed = rows.filter(
        (r) => (r.data as { transferResult?: string }).transferResult === "answered",
      );
      expect(rows.filter((r) => r.transfer === "1").length).toBe(completed.length);
    },
    within(40_000),
  );
});

describe("the keypad", () => {
  it(
    "presses keys on the far end as RFC 4733 telephone-events",
    async () => {
      plan = (said) => (said.includes("pressed 5") ? tool("sendDtmf", { digits: "12#" }) : { text: "Hm." });
      const ua = await call();
      await ua.pressKey("5");
      const keys = await waitFor(
        async () => [...ua.keysReceived],
        (k) => k.length >= 3,
        10_000,
      );
      expect(keys).toEqual(["1", "2", "#"]);
      // The tool's answer is back (the model's "Done.") before the caller leaves.
      await waitFor(
        async () => model.requests.length,
        (n) => n >= 2,
      );
      await new Promise((r) => setTimeout(r, 500));
      await ua.hangup();
      const log = await logOf(ua.callId);
      expect(log?.data).toMatchObject({ keysPressed: "12#" });
    },
    within(30_000),
  );

  it(
    "presses keys as a telephone's tones where the line carries no telephone-events (a browser, Twilio)",
    async () => {
      plan = (said) => (said.includes("pressed 5") ? tool("sendDtmf", { digits: "12#" }) : { text: "Hm." });
      const fake = createFakeCallLeg({ speed: 2 });
      const session = app.voice.startCallSession(fake.leg, {
        agentAccountId: agentId,
        settings: { idlePromptSeconds: 0, recordCalls: false },
      });
      const uuid = (await session.ready) as string;
      await fake.untilAgentDone(300);
      const before = fake.played.length;
      fake.press("5");
      // The tool's answer ("Done.") comes after the keys.
      await waitFor(
        async () =>
          model.requests.filter((r) => JSON.stringify(r.body.messages).includes("Pressed 12#")).length,
        (n) => n >= 1,
        15_000,
      );
      await fake.untilAgentDone(300);
      fake.callerHangsUp();
      await session.ended;
      const detector = createDtmfDetector();
      const keys = fake.played
        .slice(before)
        .map((frame) => detector.push(frame.samples) ?? "")
        .join("");
      expect(keys).toBe("12#");
      const log = await waitFor(
        async () =>
          (
            await app.context.database.db
              .select()
              .from(conversationLogs)
              .where(eq(conversationLogs.uuid, uuid))
          )[0],
        (row) => row !== undefined,
        15_000,
      );
      expect(log?.data).toMatchObject({ keysPressed: "12#" });
    },
    within(40_000),
  );

  it(
    "collects a number typed by the caller, ended by # or by a pause",
    async () => {
      let asked = 0;
      plan = (said) => {
        if (said.includes("pressed 9") && asked === 0) {
          asked++;
          return tool("collectDigits", { field: "accountNumber", timeoutSeconds: 2 });
        }
        if (said.includes("pressed 8"))
          return tool("collectDigits", { field: "birthYear", timeoutSeconds: 1 });
        return { text: "Hm." };
      };
      const ua = await call();
      const lastMessages = () => model.requests.map((r) => JSON.stringify(r.body.messages?.at(-1) ?? ""));
      /** The agent asked (its turn for the key reached the model): it now waits for the number. */
      const asking = (key: string) =>
        waitFor(
          async () => lastMessages(),
          (all) => all.some((m) => m.includes(`[pressed ${key}]`)),
          10_000,
        );
      await ua.pressKey("9");
      await asking("9");
      await new Promise((r) => setTimeout(r, 300));
      for (const key of ["4", "2", "7", "#"]) await ua.pressKey(key);
      await waitFor(
        async () => lastMessages(),
        (all) => all.some((m) => m.includes("The caller typed 427")),
        10_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      await ua.pressKey("8");
      await asking("8");
      await new Promise((r) => setTimeout(r, 300));
      await ua.pressKey("1");
      await ua.pressKey("9");
      // No # now: the pause ends it; the caller stays until the tool's answer reached the model.
      await waitFor(
        async () => lastMessages(),
        (answers) => answers.some((r) => r.includes("The caller typed 19")),
        10_000,
      );
      await new Promise((r) => setTimeout(r, 1000));
      await ua.hangup();
      const log = await logOf(ua.callId);
      expect(log?.data).toMatchObject({ accountNumber: "427", birthYear: "19" });
      const requests = model.requests.map((r) => JSON.stringify(r.body.messages?.at(-1) ?? ""));
      expect(requests.some((r) => r.includes("The caller typed 427 (ended with #)"))).toBe(true);
      expect(requests.some((r) => r.includes("The caller typed 19 (then paused)"))).toBe(true);
    },
    within(40_000),
  );

  it(
    "walks the sandbox's two-level phone menu with keys on an outbound call",
    async () => {
      const keys = ["1", "3"];
      plan = () => {
        const key = keys.shift();
        return key ? tool("sendDtmf", { digits: key }) : { text: "Thanks." };
      };
      const runs = sandboxIvrRuns.length;
      // No detectMachine: an agent that presses keys skips answering-machine detection (it would take the
      // menu's long greeting for a voicemail) and hears the menu from its first word.
      const placed = await app.numbers.outbound.place({
        organizationId: orgId,
        agentAccountId: agentId,
        to: MENU,
      });
      expect(placed.outcome).toBe("answered");
      expect(placed.answeredBy).toBe("person");
      expect(placed.amdDecisionMs).toBe(0);
      const run = sandboxIvrRuns.slice(runs).find((r) => r.to === MENU);
      expect(run?.keys).toEqual(["1", "3"]);
      expect(run?.path).toEqual(["main", "sales", "orders"]);
      // The agent heard each prompt by the words the sandbox line tells, not by the recogniser's guess.
      const heard = (await transcript(placed.conversation?.uuid as string)).filter((l) =>
        l.startsWith("user: "),
      );
      expect(heard.slice(0, 2)).toEqual([
        "user: Welcome to Acme. For sales, press 1. For support, press 2.",
        "user: Sales. For new orders, press 3. For billing, press 4.",
      ]);
    },
    within(90_000),
  );
});

describe("a slow tool", () => {
  let hook: Server;
  beforeAll(async () => {
    // The organisation's webhook answers after 1.2 s.
    hook = createServer((_req, res) => {
      setTimeout(() => res.end(JSON.stringify({ ok: true })), 1200);
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const { port } = hook.address() as AddressInfo;
    await owner.call(api.installApp, {
      params: { appId: "webhook", appVersion: "1.0.0" },
      body: { data: { url: `http://127.0.0.1:${port}/hook` } },
    });
  });
  afterAll(async () => {
    hook?.closeAllConnections();
    await new Promise((resolve) => hook?.close(resolve));
  });

  /** The agent's final captions of a call where the caller presses 4 and the agent calls the webhook. */
  async function captionsWith(fillerAfterMs: number) {
    plan = (said) =>
      said.includes("pressed 4") ? tool("callWebhook", { payload: { ask: "stock" } }) : { text: "Hm." };
    const said: string[] = [];
    const fake = createFakeCallLeg({ speed: 2 });
    const session = app.voice.startCallSession(fake.leg, {
      agentAccountId: agentId,
      settings: { fillerAfterMs, idlePromptSeconds: 0, recordCalls: false },
      onTranscript: (role, text, final) => {
        if (role === "agent" && final) said.push(text);
      },
    });
    await session.ready;
    await fake.untilAgentDone(300);
    fake.press("4");
    await waitFor(
      async () => said.length,
      (n) => n >= 2,
      15_000,
    );
    fake.callerHangsUp();
    await session.ended;
    return said;
  }

  it(
    "gets a filler line when it takes longer than fillerAfterMs, and none when it is quick enough",
    async () => {
      const slow = await captionsWith(300);
      expect(slow[1]).toBe("One moment. One moment please. Done.");
      const patient = await captionsWith(5000);
      expect(patient[1]).toBe("One moment. Done.");
    },
    within(40_000),
  );
});
