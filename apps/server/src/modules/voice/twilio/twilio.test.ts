import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../../vitest.time-limits.ts";
import { buildTestApp } from "../../../../test/helpers.ts";
import { answerTwilioCall, streamParametersOf, twilioStream } from "../../../../test/twilio-test-stream.ts";
import { concat, silence, spokenFixture } from "../../../../test/voice-fixtures.ts";
import { accounts, conversationLogs } from "../../../db/schema/index.ts";
import { createConversationsRepository } from "../../conversations/index.ts";
import { checkTicket, streamTicket } from "./twilio.routes.ts";

/**
 * Twilio voice end to end on loopback: the signed answer webhook's TwiML, then a WebSocket client that
 * speaks Media Streams as Twilio does (connected, start with the TwiML's parameters, μ-law 8 kHz media in
 * real time, marks echoed when played, dtmf, stop) to the demo's Front Desk agent with offline speech.
 */

const AUTH_TOKEN = "twilio-test-auth-token";
const NUMBER = "+15035550123";

let app: FastifyInstance;
let _port: number;
let frontDesk: number;
let question: Int16Array;

beforeAll(async () => {
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true", TWILIO_AUTH_TOKEN: AUTH_TOKEN }),
    spokenFixture("Do you see children?"),
  ]);
  await app.listen({ port: 0, host: "127.0.0.1" });
  _port = (app.server.address() as AddressInfo).port;
  const db = app.context.database.db;
  const rows = await db.select().from(accounts).where(eq(accounts.accountType, "agent"));
  const row = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
  if (!row) throw new Error("demo Front Desk agent missing");
  frontDesk = row.id;
  await db.update(accounts).set({ phoneNumber: NUMBER }).where(eq(accounts.id, frontDesk));
}, within(120_000));
afterAll(async () => {
  await app.close();
});

const answerCall = (callSid: string, options: { signature?: string; to?: string } = {}) =>
  answerTwilioCall(app, AUTH_TOKEN, callSid, { to: NUMBER, ...options });
const parametersOf = streamParametersOf;
const stream = (callSid: string, parameters: Record<string, string>) =>
  twilioStream(app, callSid, parameters);

describe("the Twilio voice webhook", () => {
  it("refuses a request without Twilio's signature", async () => {
    const res = await answerCall("CA100", { signature: "forged" });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: api.TWILIO_VOICE_MESSAGES.badSignature });
  });

  it("connects a call to the number's agent with a stream ticket, and turns away unknown numbers", async () => {
    const res = await answerCall("CA101");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/xml");
    expect(res.body).toContain(`<Connect><Stream url="ws://`);
    expect(res.body).toContain(`${api.twilioMediaStream.path}"`);
    const parameters = parametersOf(res.body);
    expect(parameters).toMatchObject({ from: "+15035550199", to: NUMBER });
    expect(checkTicket(app.context.secretKey, parameters.ticket as string, "CA101")).toBe(frontDesk);
    expect(checkTicket(app.context.secretKey, parameters.ticket as string, "CA999")).toBeNull();
    expect(checkTicket("another key", parameters.ticket as string, "CA101")).toBeNull();

    const unknown = await answerCall("CA102", { to: "+15035550000" });
    expect(unknown.body).toContain(`<Say>${api.TWILIO_VOICE_MESSAGES.noAgent}</Say><Hangup/>`);
    expect(unknown.body).not.toContain("<Stream");
  });
});

describe("a Twilio media stream", () => {
  it("is closed at once when its ticket is not valid", async () => {
    const expired = streamTicket(app.context.secretKey, frontDesk, "CA200", Date.now() - 120_000);
    const caller = stream("CA200", { ticket: expired, from: "+15035550199", to: NUMBER });
    await caller.opened;
    for (let i = 0; i < 40 && !caller.closed; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(caller.closed).toBe(true);
    expect(caller.received.filter((r) => r.message.event === "media")).toHaveLength(0);
  });

  it(
    "greets, answers keys pressed, clears Twilio's audio on barge-in and ends on stop",
    async () => {
      const callSid = "CA300";
      const parameters = parametersOf((await answerCall(callSid)).body);
      const caller = stream(callSid, parameters);
      await caller.opened;
      await caller.untilQuiet();
      const greeting = caller.played.length;
      expect(greeting).toBeGreaterThan(100); // ~3 s of μ-law speech, 20 ms a message
      expect(caller.played.filter((p) => p.level > 1000).length).toBeGreaterThan(50);
      // Paced in real time: 20 ms a frame, not a burst.
      const spanMs = (caller.played[greeting - 1]?.at ?? 0) - (caller.played[0]?.at ?? 0);
      expect(spanMs).toBeGreaterThan(greeting * 20 * 0.8);
      expect(caller.received.some((r) => r.message.event === "mark")).toBe(true);

      // Keys pressed reach the agent as a turn, and its answer comes back as paced μ-law media.
      caller.dtmf("1");
      await caller.untilQuiet();
      expect(caller.played.length - greeting).toBeGreaterThan(25);

      // Barge-in: the caller starts talking over the agent's next answer; Twilio is told to clear at once.
      caller.dtmf("2");
      const before = caller.played.length;
      for (let i = 0; i < 200 && caller.played.length < before + 10; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const clearsBefore = caller.received.filter((r) => r.message.event === "clear").length;
      const onset = caller.say(concat(question, silence(1500)));
      const cleared = () => caller.received.filter((r) => r.message.event === "clear").length > clearsBefore;
      for (let i = 0; i < within(100) && !cleared(); i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(cleared()).toBe(true);
      const clearedAt = caller.received.filter((r) => r.message.event === "clear").at(-1)?.at as number;
      expect(clearedAt - onset.voicedAt()).toBeLessThan(within(1000));
      await new Promise((resolve) => setTimeout(resolve, 2500));

      caller.stop();
      for (let i = 0; i < 100 && !caller.closed; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(caller.closed).toBe(true);

      const conversations = createConversationsRepository(app.context.database.db);
      const db = app.context.database.db;
      let log: typeof conversationLogs.$inferSelect | undefined;
      // The row is written as the call goes on; its end (the outcome) once the call is stored.
      for (let i = 0; i < 200 && !log?.data.callOutcome; i++) {
        [log] = await db.select().from(conversationLogs).where(eq(conversationLogs.callId, callSid));
        if (!log?.data.callOutcome) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(log).toMatchObject({ callId: callSid, fromNumber: "+15035550199", toNumber: NUMBER });
      expect(log?.data).toMatchObject({
        transport: "twilio",
        narrowband: true,
        callOutcome: "caller-hangup",
      });
      expect(log?.data.bargeIns).toBeGreaterThanOrEqual(1);
      const messages = await conversations.conversationMessages(log?.uuid as string);
      const user = messages.filter((m) => m.role === "user").map((m) => m.text);
      // 8 kHz telephone audio is not recognised offline (README, Voice): keys are the caller's input here.
      expect(user.slice(0, 2)).toEqual(["[pressed 1]", "[pressed 2]"]);
      expect(messages.filter((m) => m.role === "assistant").length).toBeGreaterThanOrEqual(3);
    },
    within(180_000),
  );
});
