import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, demoFrontDesk, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import type { accounts } from "../../db/schema/index.ts";
import { createConversationsRepository } from "../runtime/conversations.repository.ts";
import { parseWav, rms, toFrames } from "./audio.ts";
import { FRAME_SAMPLES } from "./call-leg.ts";
import { createCallRecorder } from "./call-recording.ts";

/**
 * Call recordings: off by default, switched on per agent (`saveCallSettings`), a stereo WAV in the file
 * storage (caller left, agent right, on one clock) linked from the call's log row.
 */

let app: FastifyInstance;
let frontDesk: typeof accounts.$inferSelect;
let question: Int16Array;
let token: string;

beforeAll(async () => {
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true" }),
    spokenFixture("Do you see children?"),
  ]);
  ({ agent: frontDesk, ownerToken: token } = await demoFrontDesk(app));
}, 120_000);
afterAll(async () => {
  await app.close();
});

const frame = (value: number) => new Int16Array(FRAME_SAMPLES).fill(value);

/** The two channels of a stereo WAV. */
function channels(wav: Uint8Array) {
  const parsed = parseWav(wav);
  expect(parsed).toMatchObject({ sampleRate: 16_000, channels: 2 });
  const left = new Int16Array(parsed.samples.length / 2);
  const right = new Int16Array(parsed.samples.length / 2);
  for (let i = 0; i < left.length; i++) {
    left[i] = parsed.samples[2 * i] as number;
    right[i] = parsed.samples[2 * i + 1] as number;
  }
  return { left, right };
}

describe("the recorder", () => {
  it("puts agent frames on the caller's clock and drops what a barge-in cleared", () => {
    const recorder = createCallRecorder();
    recorder.caller(frame(1));
    recorder.caller(frame(2));
    recorder.agent(frame(10)); // plays at frame 2
    recorder.agent(frame(11)); // queued behind it: frame 3
    recorder.agent(frame(12)); // frame 4
    recorder.caller(frame(3));
    recorder.caller(frame(4));
    recorder.cleared(); // frame 4 had not played
    recorder.agent(frame(13)); // right away again: frame 4
    const { left, right } = channels(recorder.wav());
    const at = (channel: Int16Array, n: number) => channel[n * FRAME_SAMPLES];
    expect([0, 1, 2, 3, 4].map((n) => at(left, n))).toEqual([1, 2, 3, 4, 0]);
    expect([0, 1, 2, 3, 4].map((n) => at(right, n))).toEqual([0, 0, 10, 11, 13]);
  });
});

describe("call recordings", () => {
  it("are off by default, and an agent's owner switches them on", async () => {
    const client = testClient(app)(token);
    const before = await client.call(api.getCallSettings, { query: { agentId: frontDesk.id } });
    expect(before.settings).toEqual({ endpointSilenceMs: 500, bargeInMinSpeechMs: 400, recordCalls: false });
    const saved = await client.call(api.saveCallSettings, {
      body: { agentId: frontDesk.id, recordCalls: true, endpointSilenceMs: 700 },
    });
    expect(saved.settings).toEqual({ endpointSilenceMs: 700, bargeInMinSpeechMs: 400, recordCalls: true });
    await expectRefusal(
      client.call(api.saveCallSettings, { body: { agentId: frontDesk.id, endpointSilenceMs: 50 } }),
      400,
    );
    await client.call(api.saveCallSettings, { body: { agentId: frontDesk.id, endpointSilenceMs: 500 } });
    const after = await client.call(api.getCallSettings, { query: { agentId: frontDesk.id } });
    expect(after.settings).toEqual({ endpointSilenceMs: 500, bargeInMinSpeechMs: 400, recordCalls: true });
  });

  it("hold the caller on the left and the agent on the right, as they were heard", async () => {
    await testClient(app)(token).call(api.saveCallSettings, {
      body: { agentId: frontDesk.id, recordCalls: true },
    });
    const fake = createFakeCallLeg({ speed: 3 });
    const session = app.voice.startCallSession(fake.leg, { agentAccountId: frontDesk.id });
    const uuid = (await session.ready) as string;
    await fake.untilAgentDone(300);
    const greetingFrames = fake.played.length;
    const { startTick } = fake.say(concat(question, silence(1200)));
    await fake.untilAgentDone(300);
    fake.callerHangsUp();
    const summary = await session.ended;

    const url = summary.recordingUrl as string;
    expect(url).toMatch(/\/files\/recordings\/[0-9a-f]+\.wav$/);
    const log = await createConversationsRepository(app.context.database.db).findLog(uuid);
    expect(log?.data).toMatchObject({ recordingUrl: url });
    const file = await app.inject({ method: "GET", url: new URL(url).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("audio/wav");
    const { left, right } = channels(new Uint8Array(file.rawPayload));

    // Left: the caller's audio where it was said (tick t is frame t - 1), recognisable.
    const at = (startTick - 1) * FRAME_SAMPLES;
    expect(left.subarray(at, at + question.length)).toEqual(question);
    const stt = app.voice.providers.stt.start();
    for (const one of toFrames(left)) stt.write(one);
    expect(await stt.finish()).toBe("do you see children");

    // Right: every agent frame at the tick it played, the greeting then the answer, and nothing else.
    expect(fake.played.length).toBeGreaterThan(greetingFrames + 100);
    const expected = new Int16Array(right.length);
    for (const played of fake.played) expected.set(played.samples, (played.tick - 1) * FRAME_SAMPLES);
    expect(right).toEqual(expected);
    // The agent was silent while the caller asked, and answered after.
    const spoken = (n: number) => rms(right.subarray(n * FRAME_SAMPLES, (n + 1) * FRAME_SAMPLES)) > 300;
    const questionFrames = toFrames(question).length;
    const firstAnswerFrame = fake.played[greetingFrames]?.tick as number;
    expect(firstAnswerFrame).toBeGreaterThan(startTick + questionFrames);
    for (let n = startTick - 1; n < startTick - 1 + questionFrames; n++) expect(spoken(n)).toBe(false);
    expect(spoken(firstAnswerFrame)).toBe(true);
  }, 90_000);

  it("are not made for agents that do not record", async () => {
    const fake = createFakeCallLeg({ speed: 3 });
    const session = app.voice.startCallSession(fake.leg, {
      agentAccountId: frontDesk.id,
      settings: { recordCalls: false },
    });
    const uuid = (await session.ready) as string;
    await fake.untilAgentPlayed(20);
    fake.callerHangsUp();
    const summary = await session.ended;
    expect(summary.recordingUrl).toBeNull();
    const log = await createConversationsRepository(app.context.database.db).findLog(uuid);
    expect(log?.data).not.toHaveProperty("recordingUrl");
  }, 30_000);
});
