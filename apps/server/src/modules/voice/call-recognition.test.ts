import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { accounts } from "../../db/schema/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { understood } from "./recognition.ts";

/**
 * Caller turns the recogniser could not make out: it fails, never answers, is aborted by a hang-up, or hears
 * nothing. Each ends that turn (the agent asks once to say it again), never the call's process. Recognition
 * is a local stand-in for the OpenAI transcription API whose answer each test chooses.
 */

const GREETING = "Thank you for calling Bluebird Dental, how can I help you today?";
const REPEAT = "Sorry, could you say that again?";

type Mode = "answer" | "fail" | "hang" | "empty";
let mode: Mode = "answer";
let requests = 0;
let stand: http.Server;
let app: FastifyInstance;
let frontDesk: number;
let question: Int16Array;
const unhandled: unknown[] = [];
const recordUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", recordUnhandled);
  stand = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      requests++;
      if (mode === "hang") return; // answers nothing, until the client gives up
      if (mode === "fail") return response.writeHead(500).end('{"error":"overloaded"}');
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ text: mode === "empty" ? "" : "Do you see children?" }));
    });
  });
  await new Promise<void>((resolve) => stand.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(stand.address() as AddressInfo).port}/v1`;
  [app, question] = await Promise.all([
    buildTestApp({
      DEMO_DATA: "true",
      STT_PROVIDER: "openai",
      OPENAI_SPEECH_API_KEY: "stand-in",
      OPENAI_SPEECH_URL: base,
    }),
    spokenFixture("Do you see children?"),
  ]);
  const rows = await app.context.database.db.select().from(accounts).where(eq(accounts.accountType, "agent"));
  const row = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
  if (!row) throw new Error("demo Front Desk agent missing");
  frontDesk = row.id;
}, within(120_000));
afterEach(() => {
  mode = "answer";
});
afterAll(async () => {
  process.off("unhandledRejection", recordUnhandled);
  await app?.close();
  stand.closeAllConnections();
  await new Promise((resolve) => stand.close(resolve));
});

async function transcript(uuid: string) {
  const messages = await createConversationsRepository(app.context.database.db).conversationMessages(uuid);
  return messages.map((m) => ({ role: m.role, text: m.text }));
}

/**
 * A call past its greeting, with the settings given; not recorded, so the greeting is the first thing said
 * (a recorded call's notice before it: recording-notice.test.ts).
 */
async function callPastGreeting(settings: Record<string, number> = {}) {
  const fake = createFakeCallLeg({ speed: 3 });
  const session = app.voice.startCallSession(fake.leg, {
    agentAccountId: frontDesk,
    settings: { idlePromptSeconds: 0, recordCalls: false, ...settings },
  });
  const uuid = (await session.ready) as string;
  await fake.untilAgentDone(300);
  return { fake, session, uuid };
}

describe("a caller turn the recogniser cannot make out", () => {
  it(
    "fails: the agent asks the caller to say it again, and nothing goes unhandled",
    async () => {
      const { fake, session, uuid } = await callPastGreeting();
      mode = "fail";
      fake.say(concat(question, silence(1200)));
      await fake.untilAgentDone(300);
      fake.callerHangsUp();
      const summary = await session.ended;
      expect(summary.outcome).toBe("caller-hangup");
      expect(await transcript(uuid)).toEqual([
        { role: "assistant", text: GREETING },
        { role: "assistant", text: REPEAT },
      ]);
      expect(unhandled).toEqual([]);
    },
    within(60_000),
  );

  it(
    "is aborted by the caller hanging up: only that call ends, logged once, with nothing said after",
    async () => {
      const { fake, session, uuid } = await callPastGreeting();
      mode = "hang";
      const before = requests;
      fake.say(concat(question, silence(1200)));
      await fake.until(() => requests > before);
      fake.callerHangsUp();
      const summary = await session.ended;
      expect(summary.outcome).toBe("caller-hangup");
      expect(await transcript(uuid)).toEqual([{ role: "assistant", text: GREETING }]);
      const log = await createConversationsRepository(app.context.database.db).findLog(uuid);
      expect(log?.data).toMatchObject({ callOutcome: "caller-hangup" });
      // The server goes on: another call is answered.
      mode = "answer";
      const next = await callPastGreeting();
      next.fake.say(concat(question, silence(1200)));
      await next.fake.untilAgentDone(300);
      next.fake.callerHangsUp();
      expect((await next.session.ended).turns.map((t) => t.text)).toEqual(["Do you see children?"]);
      expect(unhandled).toEqual([]);
    },
    within(60_000),
  );

  it(
    "never answers: the turn is given up after the call's recognition time limit",
    async () => {
      const { fake, session, uuid } = await callPastGreeting({ recognitionTimeoutMs: 1500 });
      mode = "hang";
      fake.say(concat(question, silence(1200)));
      await fake.untilAgentDone(300, 15_000);
      fake.callerHangsUp();
      await session.ended;
      expect(await transcript(uuid)).toEqual([
        { role: "assistant", text: GREETING },
        { role: "assistant", text: REPEAT },
      ]);
      expect(unhandled).toEqual([]);
    },
    within(60_000),
  );

  it(
    "hears nothing twice in a row: asks once, not again, and answers the next turn it understands",
    async () => {
      const { fake, session, uuid } = await callPastGreeting();
      mode = "empty";
      fake.say(concat(question, silence(1200)));
      await fake.untilAgentDone(300);
      fake.say(concat(question, silence(2500)));
      const { startTick } = fake.say(silence(20));
      await fake.untilTick(startTick + 10);
      mode = "answer";
      fake.say(concat(question, silence(1200)));
      await fake.untilAgentDone(300);
      fake.callerHangsUp();
      await session.ended;
      expect(await transcript(uuid)).toEqual([
        { role: "assistant", text: GREETING },
        { role: "assistant", text: REPEAT },
        { role: "user", text: "Do you see children?" },
        { role: "assistant", text: "Yes, we see children from age 3, and their first visit is free." },
      ]);
    },
    within(60_000),
  );
});

describe("a phone-audio (8 kHz) call", () => {
  it(
    "carries no warning when its recogniser hears 8 kHz",
    async () => {
      const fake = createFakeCallLeg({ speed: 3, info: { transport: "sip", narrowband: true } });
      const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk });
      const uuid = (await session.ready) as string;
      await fake.untilAgentPlayed(20);
      fake.callerHangsUp();
      await session.ended;
      const log = await createConversationsRepository(app.context.database.db).findLog(uuid);
      expect(log?.data).toMatchObject({ narrowband: true });
      expect(log?.data).not.toHaveProperty("warning");
    },
    within(30_000),
  );
});

describe("what counts as understood", () => {
  it("needs words, not an empty result, noise markers or a low confidence", () => {
    expect(understood({ text: "Do you see children?", confidence: null })).toBe(true);
    expect(understood({ text: "yes", confidence: 0.9 })).toBe(true);
    expect(understood({ text: "", confidence: null })).toBe(false);
    expect(understood({ text: " [noise] <unk> ", confidence: null })).toBe(false);
    expect(understood({ text: "...", confidence: null })).toBe(false);
    expect(understood({ text: "yes", confidence: 0.1 })).toBe(false);
    expect(understood(null)).toBe(false);
  });
});
