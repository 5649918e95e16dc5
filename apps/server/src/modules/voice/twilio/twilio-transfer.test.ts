// Cold transfers of Twilio media-stream calls: the call updated with <Dial> through Twilio's REST API (a
// loopback server standing in for api.twilio.com, which then does what Twilio does: stops the stream and
// calls back), and the bridged leg when Twilio refuses the update.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { within } from "../../../../../../vitest.time-limits.ts";
import { testClient } from "../../../../test/api-client.ts";
import { buildHierarchy } from "../../../../test/fixtures.ts";
import { buildTestApp } from "../../../../test/helpers.ts";
import { type ModelReply, startModelServer } from "../../../../test/model-protocol-server.ts";
import { answerTwilioCall, streamParametersOf, twilioStream } from "../../../../test/twilio-test-stream.ts";
import { waitFor } from "../../../../test/wait-for.ts";
import { accounts, conversationLogs } from "../../../db/schema/index.ts";
import { twilioSignature } from "../../../providers/sms/twilio.ts";
import { createConversationsRepository } from "../../conversations/index.ts";

const ACCOUNT_SID = "AC5ba1d0c0ffee";
const AUTH_TOKEN = "twilio-transfer-test-token";
const NUMBER = "+15035550140";
const SALES = "+15035550111";

type Update = { path: string; authorization: string; twiml: string };

let app: FastifyInstance;
let rest: Server;
let model: Awaited<ReturnType<typeof startModelServer>>;
/** Each call update the stand-in received. */
const updates: Update[] = [];
/** How the stand-in answers an update (Twilio's status and JSON), and what "Twilio" does after it. */
let answer: (update: Update) => { status: number; body: object } = () => ({ status: 200, body: {} });
let afterUpdate: (update: Update) => void = () => {};

beforeAll(async () => {
  rest = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const update = {
        path: req.url ?? "",
        authorization: String(req.headers.authorization ?? ""),
        twiml: new URLSearchParams(body).get("Twiml") ?? "",
      };
      updates.push(update);
      const { status, body: json } = answer(update);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
      if (status < 300) setTimeout(() => afterUpdate(update), 50);
    });
  });
  await new Promise<void>((resolve) => rest.listen(0, "127.0.0.1", resolve));
  model = await startModelServer((request) => {
    if (!(request.body.tools ?? []).length) return { text: "{}" };
    const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
    if (messages.at(-1)?.role === "tool") return { text: "Putting you through." };
    const said = [...messages].reverse().find((m) => m.role === "user");
    const text = typeof said?.content === "string" ? said.content : "";
    return text.includes("pressed 1")
      ? ({
          text: "One moment.",
          toolCalls: [{ name: "transferCall", arguments: { destination: "sales", mode: "cold" } }],
        } satisfies ModelReply)
      : { text: "Noted." };
  });
  app = await buildTestApp({
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    TWILIO_API_URL: `http://127.0.0.1:${(rest.address() as AddressInfo).port}`,
    OUTBOUND_ALLOWLIST: "127.0.0.1:*",
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const world = await buildHierarchy(app);
  const agentId = world.accounts.A1.id;
  const owner = testClient(app)(world.members.o1Owner.token);
  await owner.call(api.saveModelSettings, {
    body: { provider: "openai", baseUrl: model.url, model: "scripted", apiKey: "sk-test-0000000000000000" },
  });
  await owner.call(api.saveCampaign, {
    body: {
      agentId,
      agentInstructions: "You answer the phone for Acme.",
      greeting: "Acme, hello.",
      timezone: "America/Los_Angeles",
      apps: [{ appId: "call-transfer", version: "1.0.0" }],
      enabledFunctions: { "call-transfer@1.0.0": ["transferCall"] },
    },
  });
  await owner.call(api.publishAgent, { body: { agentId } });
  await owner.call(api.saveCallSettings, {
    body: { agentId, transferDestinations: [{ name: "sales", to: SALES, hours: null, ringSeconds: 5 }] },
  });
  await app.context.database.db.update(accounts).set({ phoneNumber: NUMBER }).where(eq(accounts.id, agentId));
}, within(120_000));
afterAll(async () => {
  await app?.close();
  await model?.close();
  await new Promise((resolve) => rest?.close(resolve));
});
beforeEach(() => {
  updates.length = 0;
  answer = () => ({ status: 200, body: {} });
  afterUpdate = () => {};
});

/** Posts one of Twilio's callbacks to the URL the TwiML named, signed as Twilio signs it. */
function callback(twiml: string, attribute: "action" | "statusCallback", params: Record<string, string>) {
  const url = (new RegExp(`${attribute}="([^"]+)"`).exec(twiml)?.[1] ?? "").replace(/&amp;/g, "&");
  const publicUrl = app.context.config.publicUrl;
  return app.inject({
    method: "POST",
    url: url.slice(publicUrl.length),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(AUTH_TOKEN, url, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
}

async function startCall(callSid: string) {
  const parameters = streamParametersOf(
    (await answerTwilioCall(app, AUTH_TOKEN, callSid, { to: NUMBER })).body,
  );
  const caller = twilioStream(app, callSid, parameters);
  await caller.opened;
  await caller.untilQuiet();
  return caller;
}

async function logOf(callSid: string) {
  return waitFor(
    async () =>
      (
        await app.context.database.db
          .select()
          .from(conversationLogs)
          .where(eq(conversationLogs.callId, callSid))
      )[0],
    (row) => typeof (row?.data as { callOutcome?: string } | undefined)?.callOutcome === "string",
    30_000,
  );
}

async function transcript(uuid: string) {
  const messages = await createConversationsRepository(app.context.database.db).conversationMessages(uuid);
  return messages.map((m) => `${m.role}: ${m.text}`);
}

describe("a cold transfer of a Twilio call", () => {
  it(
    "updates the call with <Dial> to the destination; Twilio connects it and the call ends as transferred",
    async () => {
      const callSid = "CA7e57000000000000000000000000001";
      let caller!: ReturnType<typeof twilioStream>;
      const statuses: number[] = [];
      // What Twilio does once it took the update: the stream stops, the destination rings, then answers.
      afterUpdate = (update) => {
        caller.stop();
        void (async () => {
          for (const CallStatus of ["ringing", "in-progress"])
            statuses.push(
              (await callback(update.twiml, "statusCallback", { CallSid: "CAchild", CallStatus })).statusCode,
            );
        })();
      };
      caller = await startCall(callSid);
      caller.dtmf("1");
      const log = await logOf(callSid);

      expect(updates).toHaveLength(1);
      const [update] = updates as [Update];
      expect(update.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Calls/${callSid}.json`);
      expect(update.authorization).toBe(
        `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`,
      );
      expect(update.twiml).toMatch(
        /^<\?xml[^>]*\?><Response><Dial timeout="5" action="http[^"]+" method="POST">/,
      );
      expect(update.twiml).toContain(`>${SALES}</Number></Dial></Response>`);
      expect(statuses).toEqual([200, 200]);
      expect(caller.closed).toBe(true);

      expect(log?.transfer).toBe("1");
      expect(log?.data).toMatchObject({
        transport: "twilio",
        callOutcome: "transferred",
        transferResult: "answered",
        transfers: [
          {
            destination: "sales",
            to: SALES,
            mode: "cold",
            result: "answered",
            legs: [{ kind: "handover", to: SALES, result: "answered" }],
          },
        ],
      });
      const lines = await transcript(log?.uuid as string);
      expect(
        lines.some((l) =>
          l.startsWith(`system: Transfer to sales (${SALES}, cold, by the carrier): answered`),
        ),
      ).toBe(true);

      // When the transferred call ends, Twilio asks the action what next: the call is over.
      const after = await callback(update.twiml, "action", {
        DialCallStatus: "completed",
        CallStatus: "in-progress",
      });
      expect(after.body).toContain("<Hangup/>");
    },
    within(60_000),
  );

  it(
    "brings the caller back to the agent when nobody answers the <Dial>",
    async () => {
      const callSid = "CA7e57000000000000000000000000002";
      let caller!: ReturnType<typeof twilioStream>;
      let back: Promise<string> | null = null;
      afterUpdate = (update) => {
        caller.stop();
        back = (async () =>
          (await callback(update.twiml, "action", { DialCallStatus: "no-answer", CallStatus: "in-progress" }))
            .body)();
      };
      caller = await startCall(callSid);
      caller.dtmf("1");
      await waitFor(
        async () => back,
        (value) => value !== null,
        20_000,
      );
      const twiml = await (back as unknown as Promise<string>);
      // The action's TwiML connects a new stream of the same call, which the agent speaks on.
      expect(twiml).toContain("<Connect><Stream");
      const parameters = streamParametersOf(twiml);
      expect(parameters.resume).toBe("1");
      const again = twilioStream(app, callSid, parameters);
      await again.opened;
      await again.untilQuiet();
      expect(again.played.filter((p) => p.level > 1000).length).toBeGreaterThan(25);
      again.stop();
      const log = await logOf(callSid);
      expect(log?.transfer).toBe("0");
      expect(log?.data).toMatchObject({
        callOutcome: "caller-hangup",
        transferResult: "no_answer",
        transfers: [{ result: "no_answer", legs: [{ kind: "handover", result: "no_answer" }] }],
      });
      const lines = await transcript(log?.uuid as string);
      expect(lines).toContain("assistant: I'm sorry, sales did not answer. Can I take a message for them?");
    },
    within(60_000),
  );

  it(
    "ends the call as failed when Twilio took the call for its <Dial> and never said how it went",
    async () => {
      const callSid = "CA7e57000000000000000000000000004";
      let caller!: ReturnType<typeof twilioStream>;
      afterUpdate = () => caller.stop();
      caller = await startCall(callSid);
      caller.dtmf("1");
      // The destination's 5 s ring time plus the 15 s margin, then the call's row is stored.
      const log = await waitFor(
        async () =>
          (
            await app.context.database.db
              .select()
              .from(conversationLogs)
              .where(eq(conversationLogs.callId, callSid))
          )[0],
        (row) => typeof (row?.data as { callOutcome?: string } | undefined)?.callOutcome === "string",
        40_000,
      );
      expect(updates).toHaveLength(1);
      expect(log?.transfer).toBe("0");
      expect(log?.data).toMatchObject({
        callOutcome: "caller-hangup",
        transferResult: "failed",
        transfers: [
          {
            result: "failed",
            legs: [{ kind: "handover", result: "failed", detail: "no word from Twilio in time" }],
          },
        ],
      });
    },
    within(60_000),
  );

  it(
    "bridges a new leg when Twilio refuses the update: the handover's refusal and the dial are in the log",
    async () => {
      const callSid = "CA7e57000000000000000000000000003";
      answer = () => ({
        status: 404,
        body: { code: 20404, message: "The requested resource was not found", status: 404 },
      });
      const caller = await startCall(callSid);
      caller.dtmf("1");
      const uuid = await waitFor(
        async () =>
          (
            await app.context.database.db
              .select()
              .from(conversationLogs)
              .where(eq(conversationLogs.callId, callSid))
          )[0]?.uuid,
        Boolean,
      );
      // The sandbox carrier's person answers the bridged leg; the caller hears it on the same stream.
      await waitFor(
        () => transcript(uuid as string),
        (lines) => lines.includes("system: sales: Hello?"),
        20_000,
      );
      expect(caller.closed).toBe(false);
      caller.stop();
      const log = await logOf(callSid);
      expect(updates).toHaveLength(1);
      expect(log?.transfer).toBe("1");
      expect(log?.data).toMatchObject({
        callOutcome: "transferred",
        transferResult: "answered",
        transfers: [
          {
            result: "answered",
            legs: [
              { kind: "handover", result: "refused", status: 404 },
              { kind: "dial", result: "answered" },
            ],
          },
        ],
      });
      const legs = (log?.data as { transfers?: { legs: { detail: string }[] }[] } | undefined)?.transfers?.[0]
        ?.legs;
      expect(legs?.[0]?.detail).toContain("The requested resource was not found");
    },
    within(60_000),
  );
});
