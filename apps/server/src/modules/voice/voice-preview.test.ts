// The voice pickers' samples: GET /api/v1/voice/preview answers a WAV the speech engine made in that voice.
import { VOICE_MESSAGES } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { parseWav, rms } from "../../audio/pcm.ts";

let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  app = await buildTestApp();
  token = (await buildHierarchy(app)).members.o1Owner.token;
}, within(120_000));
afterAll(async () => {
  await app?.close();
});

const preview = (query: string) =>
  app.inject({ method: "GET", url: `/api/v1/voice/preview?token=${token}&${query}` });

describe("voice previews", () => {
  it(
    "speaks a greeting in the voice's language as a 16 kHz WAV, a different sound per voice",
    async () => {
      const ava = await preview("voice=ava");
      expect(ava.statusCode, ava.body.slice(0, 200)).toBe(200);
      expect(ava.headers["content-type"]).toBe("audio/wav");
      const sound = parseWav(new Uint8Array(ava.rawPayload));
      expect(sound.sampleRate).toBe(16_000);
      const seconds = sound.samples.length / sound.sampleRate;
      expect(seconds).toBeGreaterThan(1.5);
      expect(seconds).toBeLessThan(8);
      expect(rms(sound.samples)).toBeGreaterThan(300);

      const henry = await preview("voice=henry");
      expect(Buffer.compare(henry.rawPayload, ava.rawPayload)).not.toBe(0);
      // A longer text makes a longer sample.
      const long = await preview(
        `voice=ava&text=${encodeURIComponent("One, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve.")}`,
      );
      expect(parseWav(new Uint8Array(long.rawPayload)).samples.length).toBeGreaterThan(sound.samples.length);
    },
    within(30_000),
  );

  it("refuses an unknown voice, and a caller without a session", async () => {
    const unknown = await preview("voice=nobody");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, message: VOICE_MESSAGES.unknownVoice });
    const anonymous = await app.inject({ method: "GET", url: "/api/v1/voice/preview?voice=ava" });
    expect(anonymous.statusCode).toBe(401);
  });
});
