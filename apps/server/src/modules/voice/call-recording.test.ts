import * as api from "@switchboard/api";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { dialSip } from "../../../test/sip-test-ua.ts";
import { concat, demoFrontDesk, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { FRAME_SAMPLES } from "../../audio/audio-format.ts";
import { parseWav, rms, toFrames } from "../../audio/pcm.ts";
import { type accounts, conversations } from "../../db/schema/index.ts";
import { createConversationsRepository } from "../conversations/index.ts";
import { createCallRecorder } from "./call-recording.ts";
import { freeUdpPort } from "./sip/sipp.ts";

/**
 * Call recordings: on by default, switched off per agent (`saveCallSettings`), a stereo WAV in the file
 * storage (caller left, agent right, on one clock) linked from the call's log row.
 */

let app: FastifyInstance;
let frontDesk: typeof accounts.$inferSelect;
let question: Int16Array;
let token: string;
let sipPort: number;

beforeAll(async () => {
  sipPort = await freeUdpPort();
  [app, question] = await Promise.all([
    buildTestApp({ DEMO_DATA: "true", SIP_PORT: String(sipPort), HOST: "127.0.0.1" }),
    spokenFixture("Do you see children?"),
  ]);
  ({ agent: frontDesk, ownerToken: token } = await demoFrontDesk(app));
}, within(120_000));
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
  /** A recorder on a clock the test moves (ms). */
  function recorderAt() {
    let now = 0;
    const recorder = createCallRecorder(() => now);
    return { recorder, at: (ms: number) => (now = ms) };
  }
  const at = (channel: Int16Array, n: number) => channel[n * FRAME_SAMPLES];

  it("puts agent frames where they were played and caller frames as they arrived, cut at the hang-up", () => {
    const { recorder, at: time } = recorderAt();
    for (let n = 1; n <= 4; n++) {
      time(n * 20);
      recorder.caller(frame(n)); // the slot that just ended: n - 1
    }
    recorder.played(frame(10), 40);
    recorder.played(frame(11), 60);
    time(100);
    recorder.end(); // hung up: 5 slots, whatever comes after
    recorder.played(frame(12), 100);
    recorder.caller(frame(5));
    expect(recorder.seconds()).toBe(0.1);
    const { left, right } = channels(recorder.wav());
    expect(left.length).toBe(5 * FRAME_SAMPLES);
    expect([0, 1, 2, 3, 4].map((n) => at(left, n))).toEqual([1, 2, 3, 4, 0]);
    expect([0, 1, 2, 3, 4].map((n) => at(right, n))).toEqual([0, 0, 10, 11, 0]);
  });

  it("is as long as the call when the caller's audio stops, with the gap in silence", () => {
    const { recorder, at: time } = recorderAt();
    time(20);
    recorder.caller(frame(1));
    time(40);
    recorder.caller(frame(2));
    // Nothing from the caller for two seconds (packets lost, the stream stopped), then one more frame.
    time(2040);
    recorder.caller(frame(3));
    time(3000);
    recorder.end();
    expect(recorder.seconds()).toBe(3);
    const { left } = channels(recorder.wav());
    expect(left.length).toBe(150 * FRAME_SAMPLES);
    expect([0, 1, 2, 100, 101, 102].map((n) => at(left, n))).toEqual([1, 2, 0, 0, 3, 0]);
  });

  it("models a leg that cannot say what it played: queued after each other, a clear drops the unplayed", () => {
    const { recorder, at: time } = recorderAt();
    recorder.queued(frame(10)); // plays at 0
    recorder.queued(frame(11)); // 1
    recorder.queued(frame(12)); // 2
    time(20);
    recorder.cleared(); // slot 1 is playing; 2 never did
    recorder.queued(frame(13)); // 2
    time(100);
    recorder.end();
    const { right } = channels(recorder.wav());
    expect([0, 1, 2, 3, 4].map((n) => at(right, n))).toEqual([10, 11, 13, 0, 0]);
  });
});

describe("call recordings", () => {
  it("are on by default, and an agent's owner switches them off and on again", async () => {
    const client = testClient(app)(token);
    const notice = api.CALL_SETTINGS_DEFAULTS.recordingNotice;
    const before = await client.call(api.getCallSettings, { query: { agentId: frontDesk.id } });
    expect(before.settings).toEqual({
      endpointSilenceMs: 500,
      bargeInMinSpeechMs: 400,
      recordCalls: true,
      recordingNotice: notice,
      transferDestinations: [],
    });
    const saved = await client.call(api.saveCallSettings, {
      body: { agentId: frontDesk.id, recordCalls: false, endpointSilenceMs: 700 },
    });
    expect(saved.settings).toEqual({
      endpointSilenceMs: 700,
      bargeInMinSpeechMs: 400,
      recordCalls: false,
      recordingNotice: notice,
      transferDestinations: [],
    });
    await expectRefusal(
      client.call(api.saveCallSettings, { body: { agentId: frontDesk.id, endpointSilenceMs: 50 } }),
      400,
    );
    await client.call(api.saveCallSettings, {
      body: { agentId: frontDesk.id, endpointSilenceMs: 500, recordCalls: true },
    });
    const after = await client.call(api.getCallSettings, { query: { agentId: frontDesk.id } });
    expect(after.settings).toEqual({
      endpointSilenceMs: 500,
      bargeInMinSpeechMs: 400,
      recordCalls: true,
      recordingNotice: notice,
      transferDestinations: [],
    });
  });

  it(
    "hold the caller on the left and the agent on the right, as they were heard",
    async () => {
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
    },
    within(90_000),
  );

  it(
    "hold only what a caller who hung up mid-answer heard, and are as long as the call (SIP)",
    async () => {
      await testClient(app)(token).call(api.saveCallSettings, {
        body: { agentId: frontDesk.id, recordCalls: true },
      });
      const call = await dialSip({ port: sipPort, user: String(frontDesk.id) });
      const heard: { at: number; voiced: boolean }[] = [];
      call.onFrame((samples, at) => heard.push({ at, voiced: rms(samples) > 300 }));
      const voicedSince = (since: number) => heard.filter((f) => f.at >= since && f.voiced).length;
      const until = async (check: () => boolean, timeoutMs = 30_000) => {
        const deadline = performance.now() + timeoutMs;
        while (!check()) {
          if (performance.now() > deadline) throw new Error("timed out");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      // The greeting, then quiet.
      await until(() => voicedSince(0) > 50 && heard.slice(-25).every((f) => !f.voiced));
      const asked = performance.now();
      call.say(toFrames(concat(question, silence(1200))));
      // A second of the answer, then the caller hangs up with most of it still to come.
      const questionMs = (question.length / 16_000) * 1000;
      await until(() => voicedSince(asked + questionMs) > 50);
      const hungUpAt = performance.now();
      await call.hangup();
      const callMs = hungUpAt - call.answeredAt;

      const db = app.context.database.db;
      let url: string | undefined;
      for (let tries = 0; tries < 200 && !url; tries++) {
        const [row] = await db.select().from(conversations).where(eq(conversations.callId, call.callId));
        const log = row ? await createConversationsRepository(db).findLog(row.uuid) : null;
        url = (log?.data as { recordingUrl?: string } | undefined)?.recordingUrl;
        if (!url) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(url).toMatch(/\/files\/recordings\/[0-9a-f]+\.wav$/);
      const file = await app.inject({ method: "GET", url: new URL(url as string).pathname });
      const { right } = channels(new Uint8Array(file.rawPayload));

      // As long as the call, to a quarter second: the caller's clock starts at its 200 OK and the server's at
      // its answer; on a machine busy with other work the two are up to 200 ms apart.
      expect(Math.abs((right.length / 16_000) * 1000 - callMs)).toBeLessThanOrEqual(within(250));
      // The agent's side is what the caller heard: no more speech than reached them (a frame or two in flight).
      const recordedVoiced = toFrames(right).filter((one) => rms(one) > 300).length;
      const heardVoiced = heard.filter((f) => f.voiced).length;
      expect(Math.abs(recordedVoiced - heardVoiced)).toBeLessThanOrEqual(5);
    },
    within(90_000),
  );

  it(
    "are not made for agents that do not record",
    async () => {
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
    },
    within(30_000),
  );
});
