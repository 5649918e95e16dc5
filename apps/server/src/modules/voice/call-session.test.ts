import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { createFakeCallLeg, voicedOnsetTick } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { accounts } from "../../db/schema/index.ts";
import { unexpectedErrorCount } from "../../process-guard.ts";
import { createConversationsRepository } from "../conversations/index.ts";

/** Calls end to end over an in-memory leg: the demo's Front Desk agent, offline speech, the sandbox model. */

const GREETING = "Thank you for calling Bluebird Dental, how can I help you today?";
const ANSWER = "Yes, we see children from age 3, and their first visit is free.";
/** Calls are recorded by default, and a recorded call opens with the recording notice. */
const NOTICE = "This call may be recorded.";
/** For what happens over the greeting: a call that is not recorded opens with it (no notice before). */
const UNRECORDED = { recordCalls: false };

let app: FastifyInstance;
let frontDesk: number;
let question: Int16Array;
let backchannel: Int16Array;

beforeAll(async () => {
  [app, question, backchannel] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true" }),
    spokenFixture("Do you see children?"),
    spokenFixture("Yeah."),
  ]);
  const rows = await app.context.database.db.select().from(accounts).where(eq(accounts.accountType, "agent"));
  const row = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
  if (!row) throw new Error("demo Front Desk agent missing");
  frontDesk = row.id;
});
afterAll(async () => {
  await app.close();
});

async function transcript(uuid: string) {
  const messages = await createConversationsRepository(app.context.database.db).conversationMessages(uuid);
  return messages.map((m) => ({ role: m.role, text: m.text, error: m.error }));
}

describe("a call", () => {
  it(
    "greets, hears the question, answers in speech, and is logged as a call",
    async () => {
      const fake = createFakeCallLeg({ speed: 3 });
      const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk });
      const uuid = await session.ready;
      expect(uuid).toBeTruthy();
      await fake.untilAgentDone(300);
      const greetingFrames = fake.played.length;
      expect(greetingFrames).toBeGreaterThan(100); // ~3 s of speech
      fake.say(concat(question, silence(1200)));
      await fake.untilAgentDone(300);
      const answerFrames = fake.played.length - greetingFrames;
      expect(answerFrames).toBeGreaterThan(100);
      expect(fake.played.slice(greetingFrames).some((f) => f.level > 1000)).toBe(true);
      fake.callerHangsUp();
      const summary = await session.ended;
      expect(summary.outcome).toBe("caller-hangup");
      expect(summary.turns.map((t) => t.text)).toEqual(["do you see children"]);

      expect(await transcript(uuid as string)).toEqual([
        { role: "assistant", text: NOTICE, error: null },
        { role: "assistant", text: GREETING, error: null },
        { role: "user", text: "do you see children", error: null },
        { role: "assistant", text: ANSWER, error: null },
      ]);
      const log = await createConversationsRepository(app.context.database.db).findLog(uuid as string);
      expect(log).toMatchObject({
        direction: "inbound",
        fromNumber: fake.leg.info.from,
        toNumber: fake.leg.info.to,
        callId: fake.leg.info.callId,
        agentId: frontDesk,
      });
      expect(log?.duration).toBeGreaterThanOrEqual(3);
      expect(log?.data).toMatchObject({
        channel: "voice",
        callOutcome: "caller-hangup",
        transport: "browser",
      });
      // The turn's wait taken apart, each stage after the one before it.
      const data = log?.data as { turnTimings?: Record<string, number | null>[] } | undefined;
      const [stages] = data?.turnTimings ?? [];
      const order = ["endpointMs", "recognisedMs", "firstTokenMs", "firstAudioMs", "answerMs"];
      const times = order.map((stage) => stages?.[stage]);
      expect(
        times.every((time) => typeof time === "number"),
        JSON.stringify(stages),
      ).toBe(true);
      expect([...(times as number[])].sort((a, b) => a - b)).toEqual(times);
    },
    within(30_000),
  );

  it(
    "stops talking within 100 ms when the caller barges in, keeping only what was heard",
    async () => {
      const fake = createFakeCallLeg({ speed: 3 });
      const session = app.voice.startCallSession(fake.leg, {
        agentAccountId: frontDesk,
        settings: UNRECORDED,
      });
      const uuid = (await session.ready) as string;
      await fake.untilAgentPlayed(50); // a second into the greeting
      const { startTick } = fake.say(concat(question, silence(1200)));
      const onset = voicedOnsetTick(question, startTick);
      await fake.untilTick(onset + 120);
      await fake.untilAgentDone(300);
      fake.callerHangsUp();
      const summary = await session.ended;

      const clear = fake.clears.find((c) => c.tick >= startTick);
      expect(clear).toBeDefined();
      expect(clear?.dropped).toBeGreaterThan(0);
      // Cleared within 5 frames (100 ms) of the first voiced caller frame, and nothing of the greeting after.
      expect((clear?.tick ?? 0) - onset).toBeLessThanOrEqual(5);
      expect(summary.bargeIns).toBe(1);

      const [greeting, ...rest] = await transcript(uuid);
      expect(greeting?.error).toBe("Interrupted by the caller.");
      expect(greeting?.text.length).toBeGreaterThan(0);
      expect(greeting?.text.length).toBeLessThan(GREETING.length);
      expect(GREETING.startsWith(greeting?.text ?? "-")).toBe(true);
      expect(rest).toEqual([
        { role: "user", text: "do you see children", error: null },
        { role: "assistant", text: ANSWER, error: null },
      ]);
    },
    within(30_000),
  );

  it(
    "goes on talking through a backchannel",
    async () => {
      const fake = createFakeCallLeg({ speed: 3 });
      const session = app.voice.startCallSession(fake.leg, {
        agentAccountId: frontDesk,
        settings: UNRECORDED,
      });
      const uuid = (await session.ready) as string;
      await fake.untilAgentPlayed(40);
      const { startTick } = fake.say(concat(backchannel, silence(300)));
      await fake.untilTick(startTick + 40);
      await fake.untilAgentDone(700);
      fake.callerHangsUp();
      const summary = await session.ended;
      expect(summary.bargeIns).toBe(0);
      expect(summary.turns).toEqual([]);
      // It paused at the onset and resumed where it stopped: the whole greeting was played.
      expect(await transcript(uuid)).toEqual([{ role: "assistant", text: GREETING, error: null }]);
      expect(fake.played.filter((f) => f.tick > startTick + 20).length).toBeGreaterThan(20);
    },
    within(30_000),
  );

  it(
    "flags a phone-audio (8 kHz) call in its log when offline recognition cannot hear it",
    async () => {
      const narrowband = async (yes: boolean) => {
        const fake = createFakeCallLeg({ speed: 3, info: { transport: "sip", narrowband: yes } });
        const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk });
        const uuid = (await session.ready) as string;
        await fake.untilAgentPlayed(20);
        fake.callerHangsUp();
        await session.ended;
        return (await createConversationsRepository(app.context.database.db).findLog(uuid))?.data;
      };
      expect(await narrowband(true)).toMatchObject({
        narrowband: true,
        warning: "Offline recognition cannot hear 8 kHz phone audio: set STT_PROVIDER=deepgram or openai.",
      });
      expect(await narrowband(false)).not.toHaveProperty("warning");
    },
    within(30_000),
  );

  it(
    "ends only itself, as failed and counted, when its own code throws on what the transport handed it",
    async () => {
      const fake = createFakeCallLeg({ speed: 3 });
      const listeners: ((frame: Int16Array) => void)[] = [];
      // A transport with a bug: it hands the pipeline a frame of the wrong size.
      const leg = {
        ...fake.leg,
        onAudio: (listener: (frame: Int16Array) => void) => void listeners.push(listener),
      };
      const session = app.voice.startCallSession(leg, { agentAccountId: frontDesk });
      await session.ready;
      const before = unexpectedErrorCount();
      expect(() => {
        for (const listener of listeners) listener(new Int16Array(7));
      }).not.toThrow();
      const summary = await session.ended;
      expect(summary).toMatchObject({ outcome: "failed", error: "Something went wrong on our side." });
      expect(fake.hungUp).toBe("Something went wrong on our side.");
      expect(unexpectedErrorCount()).toBe(before + 1);
    },
    within(30_000),
  );

  it(
    "hears pressed digits as text and refuses an unknown agent clearly",
    async () => {
      const fake = createFakeCallLeg({ speed: 3 });
      const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk });
      const uuid = (await session.ready) as string;
      await fake.untilAgentDone(200);
      fake.press("4");
      await fake.untilAgentDone(200);
      fake.callerHangsUp();
      await session.ended;
      expect((await transcript(uuid)).map((m) => m.text)).toContain("[pressed 4]");

      const other = createFakeCallLeg();
      const refused = await app.voice.startCallSession(other.leg, { agentAccountId: 999_999 }).ended;
      expect(refused).toMatchObject({ outcome: "failed", error: "no agent with id 999999" });
      expect(other.hungUp).toBe("no agent with id 999999");
    },
    within(30_000),
  );

  it(
    "logs a call whose caller hung up while it was being set up, once, and says nothing",
    async () => {
      const fake = createFakeCallLeg({ speed: 3 });
      const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk });
      // At once: the agent, its campaign and model are still being looked up.
      fake.callerHangsUp();
      const summary = await session.ended;
      expect(summary.outcome).toBe("caller-hangup");
      expect(summary.conversationUuid).toBeTruthy();
      expect(await session.ready).toBe(summary.conversationUuid);
      const log = await createConversationsRepository(app.context.database.db).findLog(
        summary.conversationUuid as string,
      );
      expect(log?.data).toMatchObject({ callOutcome: "caller-hangup" });
      expect(fake.played.filter((frame) => frame.level > 0)).toEqual([]);
    },
    within(30_000),
  );
});
