// Issue 31 item 5: phone calls arrive as 8 kHz G.711; when the server's recognition cannot hear that, the
// Numbers page says so with the fix (GET /api/v1/voice/speech), as the call log flags each such call.
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { NARROWBAND_WARNING } from "../../modules/voice/call-end.ts";

const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

async function speechStatus(env: Record<string, string> = {}) {
  const app = await buildTestApp(env);
  apps.push(app);
  const world = await buildHierarchy(app);
  return testClient(app)(world.members.o1Owner.token).call(api.getSpeechStatus);
}

describe("the speech recognition's status", () => {
  it("warns, with the fix, when offline recognition cannot hear phone audio", async () => {
    expect(await speechStatus()).toEqual({
      success: true,
      recognition: { provider: "pocketsphinx", hearsPhoneAudio: false },
      warning: NARROWBAND_WARNING,
    });
  });

  it("has no warning with a hosted recogniser", async () => {
    const status = await speechStatus({ STT_PROVIDER: "openai", OPENAI_SPEECH_API_KEY: "sk-test" });
    expect(status.recognition.hearsPhoneAudio).toBe(true);
    expect(status.warning).toBeNull();
  });
});
