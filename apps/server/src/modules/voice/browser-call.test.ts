import type { AddressInfo } from "node:net";
import { PUBLIC_CALLS_PER_HOUR, PUBLIC_MESSAGES, VOICE_MESSAGES } from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { dialBrowser } from "../../../test/browser-test-call.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { FRAME_MS, FRAME_SAMPLES } from "../../audio/audio-format.ts";
import { accounts, users } from "../../db/schema/index.ts";
import { DEMO_USERS } from "../../demo/seed.ts";
import { issueSessionToken } from "../auth/sessions.ts";
import { createConversationsRepository } from "../conversations/index.ts";

/**
 * The browser test call end to end over a real socket: a listening app, a WebSocket client that behaves like
 * the web app's microphone (PCM16 16 kHz in uneven chunks, in real time, silence between words), the demo's
 * Front Desk agent with offline speech and the sandbox model.
 */

const GREETING = "Thank you for calling Bluebird Dental, how can I help you today?";
const ANSWER = "Yes, we see children from age 3, and their first visit is free.";

let app: FastifyInstance;
let base: string;
let token: string;
let frontDesk: number;
let question: Int16Array;

beforeAll(async () => {
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true" }),
    spokenFixture("Do you see children?"),
  ]);
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const db = app.context.database.db;
  const [owner] = await db.select().from(users).where(eq(users.email, DEMO_USERS.owner));
  const [org] = await db.select().from(accounts).where(eq(accounts.username, "bluebird-dental"));
  if (!owner || !org) throw new Error("demo data missing");
  token = await issueSessionToken(db, owner.id, org.id);
  const agents = await db.select().from(accounts).where(eq(accounts.organizationId, org.id));
  const row = agents.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
  if (!row) throw new Error("demo Front Desk agent missing");
  frontDesk = row.id;
  // These calls are about the browser's transport and the greeting: not recorded, so they open with the
  // greeting (a recorded call's notice before it: recording-notice.test.ts).
  const saved = await app.inject({
    method: "POST",
    url: "/api/v1/voice/settings",
    headers: { authorization: `Bearer ${token}` },
    payload: { agentId: frontDesk, recordCalls: false },
  });
  if (saved.statusCode !== 200) throw new Error(`could not switch recording off: ${saved.body}`);
});
afterAll(async () => {
  await app.close();
});

/** A call from the "browser" to this app's socket (test/browser-test-call.ts). */
const dial = (query: string, path = "/api/v1/voice/call") => dialBrowser(base, query, path);

async function until(check: () => boolean, ms = 20_000) {
  const end = Date.now() + within(ms);
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the browser test call", () => {
  it(
    "greets, hears the spoken question and answers in paced audio and captions, and lands in Calls",
    async () => {
      const call = dial(`token=${token}&agentId=${frontDesk}`);
      await until(() => call.messages.some((m) => m.type === "ready"));
      const ready = call.messages.find((m) => m.type === "ready") as { uuid: string; roomId: string };
      expect(ready.uuid).toBeTruthy();
      expect(ready.roomId).toBeTruthy();

      // The greeting: captioned, then played in real time (one 20 ms frame every 20 ms, not a burst).
      await until(() => call.captions("agent").length === 1);
      expect(call.captions("agent")).toEqual([GREETING]);
      await until(() => call.frames.length > 0 && performance.now() - (call.frames.at(-1)?.at ?? 0) > 400);
      const greeting = [...call.frames];
      expect(greeting.length).toBeGreaterThan(100);
      expect(greeting.every((f) => f.bytes === FRAME_SAMPLES * 2)).toBe(true);
      const span = (greeting.at(-1)?.at ?? 0) - (greeting[0]?.at ?? 0);
      expect(span).toBeGreaterThan((greeting.length - 10) * FRAME_MS);
      // Not much slower than real time either (generous: the whole suite shares two cores in CI).
      expect(span).toBeLessThan(greeting.length * FRAME_MS * 2);

      // The question, spoken into the "microphone" in real time.
      call.say(concat(question, silence(1200)));
      await until(() => call.captions("agent").length === 2);
      expect(call.captions("caller")).toEqual(["do you see children"]);
      expect(call.captions("agent")).toEqual([GREETING, ANSWER]);
      const answerFrom = greeting.length;
      await until(() => call.frames.length - answerFrom > 100);
      expect(call.frames.slice(answerFrom).some((f) => f.level > 1000)).toBe(true);

      call.socket.send(JSON.stringify({ type: "hangup" }));
      await until(() => call.closed);
      call.stop();

      const calls = createConversationsRepository(app.context.database.db);
      // The end of the call is stored just after the socket closes.
      let log = await calls.findLog(ready.uuid);
      const outcome = () => (log?.data as { callOutcome?: string } | undefined)?.callOutcome;
      for (let i = 0; i < 50 && outcome() !== "caller-hangup"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        log = await calls.findLog(ready.uuid);
      }
      expect(log).toMatchObject({ direction: "inbound", agentId: frontDesk, fromNumber: DEMO_USERS.owner });
      expect(log?.duration).toBeGreaterThanOrEqual(3);
      expect(log?.data).toMatchObject({
        channel: "voice",
        callOutcome: "caller-hangup",
        transport: "browser",
      });
      const transcript = (await calls.conversationMessages(ready.uuid)).map((m) => [m.role, m.text]);
      expect(transcript).toEqual([
        ["assistant", GREETING],
        ["user", "do you see children"],
        ["assistant", ANSWER],
      ]);
    },
    within(40_000),
  );

  it(
    "tells the browser to drop its queued audio when the caller barges in, and hears pressed digits",
    async () => {
      const call = dial(`token=${token}&agentId=${frontDesk}&stage=production`);
      await until(() => call.frames.length > 50); // a second into the greeting
      call.say(concat(question, silence(1200)));
      await until(() => call.messages.some((m) => m.type === "clear"));
      await until(() => call.captions("agent").length === 2);
      expect(call.captions("caller")).toEqual(["do you see children"]);
      // The greeting's caption is cut to what was heard; the answer is whole.
      const [greeting, answer] = call.captions("agent");
      expect(GREETING.startsWith(greeting ?? "-")).toBe(true);
      expect(greeting?.length).toBeLessThan(GREETING.length);
      expect(answer).toBe(ANSWER);

      call.socket.send(JSON.stringify({ type: "dtmf", digit: "4" }));
      call.socket.send(JSON.stringify({ type: "dtmf", digit: "not a digit" }));
      await until(() => call.captions("caller").length === 2);
      expect(call.captions("caller")).toEqual(["do you see children", "[pressed 4]"]);
      call.socket.close();
      await until(() => call.closed);
      call.stop();
    },
    within(40_000),
  );

  it(
    "refuses before the upgrade without a token, and ends at once for another organisation's agent",
    async () => {
      const anonymous = dial(`agentId=${frontDesk}`);
      await until(() => anonymous.closed);
      anonymous.stop();
      expect(anonymous.refused).toBe(401);

      const plain = await app.inject({ method: "GET", url: `/api/v1/voice/call?token=${token}` });
      expect(plain.statusCode).toBe(426);

      const world = await buildHierarchy(app);
      const stranger = dial(`token=${world.members.o1Owner.token}&agentId=${frontDesk}`);
      await until(() => stranger.closed);
      stranger.stop();
      expect(stranger.messages).toEqual([{ type: "ended", reason: "Agent not found", outcome: "failed" }]);
      expect(stranger.frames).toEqual([]);
    },
    within(20_000),
  );

  it(
    "a public page's visitor talks to its published agent; refused without a session and past the hourly limit",
    async () => {
      const page = "/api/v1/voice/public/bluebird-dental";
      const visitor = (await app.inject({ method: "GET", url: "/api/v1/allocateTempUserSession" })).json()
        .token as string;
      const call = dial(`token=${visitor}`, page);
      await until(() => call.messages.some((m) => m.type === "ready"));
      const ready = call.messages.find((m) => m.type === "ready") as { uuid: string };
      await until(() => call.captions("agent").length === 1);
      expect(call.captions("agent")).toEqual([GREETING]);
      call.say(concat(question, silence(1200)));
      await until(() => call.captions("agent").length === 2);
      expect(call.captions("agent")[1]).toBe(ANSWER);
      call.socket.send(JSON.stringify({ type: "hangup" }));
      await until(() => call.closed);
      call.stop();

      // A real call of the organisation (Calls, usage), from the visitor, on the published agent.
      const calls = createConversationsRepository(app.context.database.db);
      let log = await calls.findLog(ready.uuid);
      for (let i = 0; i < 50 && !log; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        log = await calls.findLog(ready.uuid);
      }
      expect(log).toMatchObject({ direction: "inbound", agentId: frontDesk });
      expect(log?.fromNumber).toMatch(/^web visitor \d+$/);
      const conversation = await calls.findConversation(ready.uuid);
      expect(conversation).toMatchObject({ stage: "production", channel: "voice" });
      expect((await calls.findRoom(conversation?.roomId ?? ""))?.kind).toBe("live");

      const anonymous = dial("", page);
      await until(() => anonymous.closed);
      anonymous.stop();
      expect(anonymous.messages).toEqual([
        { type: "ended", reason: PUBLIC_MESSAGES.chatNoSession, outcome: "failed" },
      ]);
      const nowhere = dial(`token=${visitor}`, "/api/v1/voice/public/no-such-page");
      await until(() => nowhere.closed);
      nowhere.stop();
      expect(nowhere.messages).toEqual([
        { type: "ended", reason: PUBLIC_MESSAGES.chatNotFound, outcome: "failed" },
      ]);

      // The hour's calls: the first and four more, then a refusal.
      for (let n = 1; n < PUBLIC_CALLS_PER_HOUR; n++) {
        const more = dial(`token=${visitor}`, page);
        await until(() => more.messages.some((m) => m.type === "ready"));
        more.socket.send(JSON.stringify({ type: "hangup" }));
        await until(() => more.closed);
        more.stop();
      }
      const refused = dial(`token=${visitor}`, page);
      await until(() => refused.closed);
      refused.stop();
      expect(refused.messages).toEqual([
        { type: "ended", reason: VOICE_MESSAGES.publicCallsLimited, outcome: "failed" },
      ]);
    },
    within(60_000),
  );
});
