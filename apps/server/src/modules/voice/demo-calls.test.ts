import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { buildTestApp, testConfig } from "../../../test/helpers.ts";
import { demoFrontDesk } from "../../../test/voice-fixtures.ts";
import { DEMO_CALLED_AGENT } from "../../demo/seed.ts";
import { DEMO_CALLERS, demoCallsJob } from "./demo-calls.ts";

// Issue #23 item 2: the demo's latest calls are made by simulated callers through the real call pipeline,
// so what the owner opens on Calls is what a real call leaves. Issue 32 item 21: like real calls (recorded by
// default), each has a recording, and opens with the recording notice.

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ DEMO_DATA: "true" });
});
afterAll(async () => {
  await app.close();
});

describe("the demo calls", () => {
  it("are on by default with the demo data, off in tests and when DEMO_CALLS=false", () => {
    expect(testConfig({ NODE_ENV: "development" }).demoCalls).toBe(true);
    expect(testConfig({ NODE_ENV: "development", DEMO_CALLS: "false" }).demoCalls).toBe(false);
    expect(testConfig().demoCalls).toBe(false);
  });

  it("ring the Front Desk, talk with it, and show on Calls with their recordings and transcripts; like the rest of the demo's history, they are not charged", {
    timeout: within(180_000),
  }, async () => {
    const { ownerToken, orgId } = await demoFrontDesk(app);
    await app.context.jobs.send(demoCallsJob, { agentUsername: DEMO_CALLED_AGENT });
    await app.context.jobs.idle([demoCallsJob], 170_000);

    const owner = testClient(app)(ownerToken);
    const { logs } = await owner.call(api.listLogs, {
      query: { page: 1, pageSize: DEMO_CALLERS.length },
    });
    // Newest first: the last caller's call heads the list.
    expect(logs.map((row) => row.fromNumber)).toEqual(DEMO_CALLERS.map((caller) => caller.from).reverse());
    for (const [index, row] of logs.entries()) {
      expect(row.channel).toBe("voice");
      expect(Number(row.duration)).toBeGreaterThan(2);
      expect(row.recordingUrl).toMatch(/\/files\/recordings\/[0-9a-f]+\.wav$/);
      const file = await app.inject({ method: "GET", url: new URL(String(row.recordingUrl)).pathname });
      expect(file.headers["content-type"]).toBe("audio/wav");
      // As long as the call (the duration is whole seconds, the recording from the answer to the hang-up).
      expect(Math.abs((file.rawPayload.length - 44) / 64_000 - Number(row.duration))).toBeLessThan(2);
      const transcript = await owner.call(api.getConversationTranscript, {
        params: { roomId: String(row.roomId), uuid: String(row.uuid) },
      });
      expect(transcript.info).toMatchObject({ channel: "voice", status: "ended" });
      const [notice, greeting, ...turns] = transcript.conversation;
      expect(notice).toMatchObject({ role: "assistant", text: api.CALL_SETTINGS_DEFAULTS.recordingNotice });
      expect(greeting).toMatchObject({
        role: "assistant",
        text: "Thank you for calling Bluebird Dental, how can I help you today?",
      });
      // Each line was heard as one turn of the caller (Festival's voice, which the recogniser hears best),
      // and the agent answered it from its instructions.
      const caller = DEMO_CALLERS[DEMO_CALLERS.length - 1 - index];
      const said = (caller?.lines ?? []).map((line) => line.toLowerCase().replace(/[?.,]/g, ""));
      expect(turns.map((entry) => [entry.role, entry.role === "user" ? entry.text : ""])).toEqual(
        said.flatMap((line) => [
          ["user", line],
          ["assistant", ""],
        ]),
      );
      for (const answer of turns.filter((entry) => entry.role === "assistant")) {
        expect(answer.text.length).toBeGreaterThan(0);
        expect(answer.text).not.toMatch(/can't help with that|don't have that information/);
      }
    }
    // The calls' minutes are usage (the usage page counts them), but nothing of them reaches the wallet.
    expect(await app.usage.debits.debitOrganization(orgId)).toMatchObject({ postings: 0 });
    const usage = await owner.call(api.getUsageStats, { query: { billingPeriod: "current" } });
    expect(usage.debitedCents).toBe(0);
  });
});
