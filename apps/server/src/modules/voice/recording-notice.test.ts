import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg, voicedOnsetTick } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, demoFrontDesk, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import type { accounts } from "../../db/schema/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { recordingNoticeText } from "./recording-notice.ts";

// Issue 32 item 21: calls are recorded by default, and a recorded call opens with the recording notice.

const GREETING = "Thank you for calling Bluebird Dental, how can I help you today?";
const NOTICE = "This call may be recorded.";

let app: FastifyInstance;
let frontDesk: typeof accounts.$inferSelect;
let token: string;
let question: Int16Array;

beforeAll(async () => {
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true" }),
    spokenFixture("Do you see children?"),
  ]);
  ({ agent: frontDesk, ownerToken: token } = await demoFrontDesk(app));
}, within(120_000));
afterAll(async () => {
  await app.close();
});

/** A short call: the agent's opening lines, then the caller hangs up. */
async function shortCall() {
  const fake = createFakeCallLeg({ speed: 3 });
  const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk.id });
  const uuid = (await session.ready) as string;
  await fake.untilAgentDone(300);
  fake.callerHangsUp();
  const summary = await session.ended;
  const repository = createConversationsRepository(app.context.database.db);
  const messages = await repository.conversationMessages(uuid);
  return {
    summary,
    transcript: messages.map((m) => [m.role, m.text]),
    log: await repository.findLog(uuid),
    frames: fake.played.length,
  };
}

const saveSettings = (body: Record<string, unknown>) =>
  app.inject({
    method: "POST",
    url: "/api/v1/voice/settings",
    headers: { authorization: `Bearer ${token}` },
    payload: { agentId: frontDesk.id, ...body },
  });

describe("call recording by default", () => {
  it(
    "records an agent that never set it, and the caller hears the notice before the greeting",
    async () => {
      const client = testClient(app)(token);
      const settings = await client.call(api.getCallSettings, { query: { agentId: frontDesk.id } });
      expect(settings.settings).toMatchObject({ recordCalls: true, recordingNotice: NOTICE });

      const call = await shortCall();
      expect(call.summary.recordingUrl).toMatch(/\/files\/recordings\/[0-9a-f]+\.wav$/);
      expect(call.log?.data).toMatchObject({ recordingUrl: call.summary.recordingUrl });
      // Served in parts, so the call's details can play it from any line of the transcript.
      const path = new URL(String(call.summary.recordingUrl)).pathname;
      const whole = await app.inject({ method: "GET", url: path });
      expect(whole.headers["accept-ranges"]).toBe("bytes");
      const part = await app.inject({ method: "GET", url: path, headers: { range: "bytes=44-1067" } });
      expect(part.statusCode).toBe(206);
      expect(part.headers["content-range"]).toBe(`bytes 44-1067/${whole.rawPayload.length}`);
      expect(part.rawPayload).toEqual(whole.rawPayload.subarray(44, 1068));
      const beyond = await app.inject({ method: "GET", url: path, headers: { range: "bytes=99999999-" } });
      expect(beyond.statusCode).toBe(416);
      // The notice is the agent's first words, in the transcript as said.
      expect(call.transcript).toEqual([
        ["assistant", NOTICE],
        ["assistant", GREETING],
      ]);
    },
    within(60_000),
  );

  it(
    "makes no recording and says no notice once the owner switches recording off",
    async () => {
      expect((await saveSettings({ recordCalls: false })).statusCode).toBe(200);
      try {
        const call = await shortCall();
        expect(call.summary.recordingUrl).toBeNull();
        expect(call.log?.data).not.toHaveProperty("recordingUrl");
        expect(call.transcript).toEqual([["assistant", GREETING]]);
      } finally {
        await saveSettings({ recordCalls: true });
      }
    },
    within(60_000),
  );

  it(
    "says the owner's notice with the agent's variables filled in",
    async () => {
      const saved = await saveSettings({
        recordingNotice: "  {clinicName} records its calls for quality.  ",
      });
      expect(saved.json()).toMatchObject({
        settings: { recordCalls: true, recordingNotice: "{clinicName} records its calls for quality." },
      });
      try {
        const call = await shortCall();
        expect(call.transcript[0]).toEqual(["assistant", "Bluebird Dental records its calls for quality."]);
        expect(call.summary.recordingUrl).toBeTruthy();
      } finally {
        await saveSettings({ recordingNotice: NOTICE });
      }
    },
    within(60_000),
  );

  it(
    "keeps only what was heard of a notice the caller talks over, and answers them without greeting over them",
    async () => {
      const long =
        "This call is recorded for quality and training, and by staying on the line you agree to the recording.";
      expect((await saveSettings({ recordingNotice: long })).statusCode).toBe(200);
      try {
        const fake = createFakeCallLeg({ speed: 3 });
        const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk.id });
        const uuid = (await session.ready) as string;
        await fake.untilAgentPlayed(40);
        const { startTick } = fake.say(concat(question, silence(1200)));
        await fake.untilTick(voicedOnsetTick(question, startTick) + 120);
        await fake.untilAgentDone(300);
        fake.callerHangsUp();
        const summary = await session.ended;
        const messages = await createConversationsRepository(app.context.database.db).conversationMessages(
          uuid,
        );
        expect(summary.bargeIns).toBe(1);
        const [notice, ...rest] = messages.map((m) => ({ role: m.role, text: m.text, error: m.error }));
        expect(notice?.error).toBe("Interrupted by the caller.");
        expect(notice?.text.length).toBeLessThan(long.length);
        expect(long.startsWith(notice?.text ?? "-")).toBe(true);
        expect(rest).toEqual([
          { role: "user", text: "do you see children", error: null },
          {
            role: "assistant",
            text: "Yes, we see children from age 3, and their first visit is free.",
            error: null,
          },
        ]);
      } finally {
        await saveSettings({ recordingNotice: NOTICE });
      }
    },
    within(60_000),
  );

  it("refuses an empty or overlong notice with a clear message", async () => {
    for (const recordingNotice of ["   ", "x".repeat(api.RECORDING_NOTICE_MAX + 1)]) {
      const refused = await saveSettings({ recordingNotice });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(api.RECORDING_NOTICE_MESSAGE);
    }
  });
});

describe("the notice's words", () => {
  it("never says an unfilled {variable}: its clause goes, and an empty notice is the default", () => {
    expect(recordingNoticeText("Calls to {clinicName} are recorded.", { clinicName: "Bluebird" })).toBe(
      "Calls to Bluebird are recorded.",
    );
    expect(recordingNoticeText("Hello, this call is recorded, {oops}.")).toBe(
      "Hello, this call is recorded.",
    );
    expect(recordingNoticeText("{oops}")).toBe(NOTICE);
    expect(recordingNoticeText("Calls to {clinicName} are recorded.")).toBe(NOTICE);
  });
});
