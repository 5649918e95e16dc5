import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { within } from "../../../../../../vitest.time-limits.ts";
import { buildTestApp } from "../../../../test/helpers.ts";
import { concat, silence, spokenFixture } from "../../../../test/voice-fixtures.ts";
import { rms, toFrames } from "../../../audio/pcm.ts";
import { accounts, conversationLogs } from "../../../db/schema/index.ts";
import { twilioSignature } from "../../../providers/sms/twilio.ts";
import { createConversationsRepository } from "../../runtime/conversations.repository.ts";
import { createCodecSession } from "../sip/audio-codec.ts";
import { checkTicket, streamTicket } from "./twilio.routes.ts";

/**
 * Twilio voice end to end on loopback: the signed answer webhook's TwiML, then a WebSocket client that
 * speaks Media Streams as Twilio does (connected, start with the TwiML's parameters, μ-law 8 kHz media in
 * real time, marks echoed when played, dtmf, stop) to the demo's Front Desk agent with offline speech.
 */

const AUTH_TOKEN = "twilio-test-auth-token";
const NUMBER = "+15035550123";

let app: FastifyInstance;
let port: number;
let frontDesk: number;
let question: Int16Array;

beforeAll(async () => {
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true", TWILIO_AUTH_TOKEN: AUTH_TOKEN }),
    spokenFixture("Do you see children?"),
  ]);
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as AddressInfo).port;
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

/** Posts Twilio's voice webhook, signed like Twilio signs it (unless `signature` says otherwise). */
async function answerCall(callSid: string, options: { signature?: string; to?: string } = {}) {
  const url = api.twilioVoiceAnswer.path;
  const params = { CallSid: callSid, From: "+15035550199", To: options.to ?? NUMBER, Direction: "inbound" };
  const signature =
    options.signature ?? twilioSignature(AUTH_TOKEN, `${app.context.config.publicUrl}${url}`, params);
  return app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    payload: new URLSearchParams(params).toString(),
  });
}

function parametersOf(twiml: string): Record<string, string> {
  return Object.fromEntries(
    [...twiml.matchAll(/<Parameter name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [
      m[1] as string,
      (m[2] as string).replace(/&amp;/g, "&"),
    ]),
  );
}

type Sent = { event: string; media?: { payload: string }; mark?: { name: string }; streamSid?: string };

/** A Twilio media stream: sends the caller's audio in real time, plays and collects what comes back. */
function stream(callSid: string, parameters: Record<string, string>) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${api.twilioMediaStream.path}`);
  const streamSid = `MZ${callSid.slice(2)}`;
  const codec = createCodecSession("PCMU");
  const decoder = createCodecSession("PCMU");
  const received: { at: number; message: Sent }[] = [];
  const played: { at: number; level: number }[] = [];
  const script: Int16Array[] = [];
  let closed = false;
  let sequence = 0;
  let timer: NodeJS.Timeout | null = null;
  const sendJson = (message: object) => {
    if (socket.readyState === 1)
      socket.send(JSON.stringify({ sequenceNumber: String(++sequence), ...message }));
  };
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as Sent;
    received.push({ at: performance.now(), message });
    if (message.event === "media" && message.media) {
      const samples = decoder.decode(Buffer.from(message.media.payload, "base64"));
      played.push({ at: performance.now(), level: rms(samples) });
    }
    // Twilio echoes a mark once the audio before it has played (here: at once).
    if (message.event === "mark") sendJson({ event: "mark", streamSid, mark: message.mark });
  });
  socket.on("close", () => {
    closed = true;
    if (timer) clearInterval(timer);
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.on("open", resolve);
    socket.on("error", reject);
  });
  let chunk = 0;
  let sent = 0;
  const sentAt = new Map<number, number>();
  void opened.then(() => {
    sendJson({ event: "connected", protocol: "Call", version: "1.0.0" });
    sendJson({
      event: "start",
      streamSid,
      start: {
        streamSid,
        accountSid: "AC0000",
        callSid,
        tracks: ["inbound"],
        mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
        customParameters: parameters,
      },
    });
    timer = setInterval(() => {
      const frame = script.shift() ?? new Int16Array(320);
      chunk++;
      sentAt.set(++sent, performance.now());
      sendJson({
        event: "media",
        streamSid,
        media: {
          track: "inbound",
          chunk: String(chunk),
          timestamp: String(chunk * 20),
          payload: codec.encode(frame).toString("base64"),
        },
      });
    }, 20);
  });
  return {
    received,
    played,
    opened,
    get closed() {
      return closed;
    },
    /** Queues speech; `voicedAt()` is when its first voiced frame was sent (once it was). */
    say(samples: Int16Array) {
      const frames = toFrames(samples);
      const firstVoiced = script.length + frames.findIndex((frame) => rms(frame) > 300);
      script.push(...frames);
      const sentBefore = sent;
      return { voicedAt: () => sentAt.get(sentBefore + firstVoiced + 1) ?? Number.NaN };
    },
    dtmf(digit: string) {
      sendJson({ event: "dtmf", streamSid, dtmf: { track: "inbound_track", digit } });
    },
    stop() {
      sendJson({ event: "stop", streamSid, stop: { accountSid: "AC0000", callSid } });
    },
    /** Resolves when speech came back and then nothing for `quietMs`. */
    async untilQuiet(quietMs = 600, timeoutMs = 45_000) {
      const from = played.length;
      const end = performance.now() + timeoutMs;
      for (;;) {
        const last = played.at(-1);
        if (played.length > from && last && performance.now() - last.at > quietMs) return;
        if (performance.now() > end) throw new Error("no speech came back in time");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

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
