// VOICE_WORKER_SIP_PORT: each voice worker listens for SIP on a port of its own (what a SIP edge such as
// Kamailio dispatches to), answers OPTIONS there for health checks and carries the calls sent to it.
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../../vitest.time-limits.ts";
import { buildTestApp } from "../../../../test/helpers.ts";
import { dialSip } from "../../../../test/sip-test-ua.ts";
import { demoFrontDesk } from "../../../../test/voice-fixtures.ts";
import { conversations } from "../../../db/schema/index.ts";
import { freeUdpPort } from "../sip/sipp.ts";

let app: FastifyInstance;
let workerPort: number;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  workerPort = await freeUdpPort();
  app = await buildTestApp({
    DEMO_DATA: "true",
    HOST: "127.0.0.1",
    VOICE_WORKERS: "1",
    VOICE_WORKER_SIP_PORT: String(workerPort),
  });
  for (let tries = 0; tries < 300; tries++) {
    if (app.context.voiceWorkers?.state().every((w) => w.state === "up")) break;
    await sleep(100);
  }
}, within(60_000));

afterAll(async () => {
  await app?.close();
});

describe("voice workers on SIP ports of their own", () => {
  it(
    "worker 0 answers a call sent to VOICE_WORKER_SIP_PORT + 0 and /readyz names its port",
    async () => {
      const answer = await app.inject({ method: "GET", url: "/readyz" });
      expect(answer.json().voiceWorkers).toEqual([
        expect.objectContaining({ index: 0, state: "up", sipPort: workerPort }),
      ]);
      const { agent } = await demoFrontDesk(app);
      const call = await dialSip({ port: workerPort, user: String(agent.id) });
      let row: typeof conversations.$inferSelect | undefined;
      for (let tries = 0; tries < 100 && !row; tries++) {
        [row] = await app.context.database.db
          .select()
          .from(conversations)
          .where(eq(conversations.callId, call.callId));
        if (!row) await sleep(100);
      }
      expect(row?.channel).toBe("voice");
      expect(app.context.voiceWorkers?.state()[0]?.calls).toBe(1);
      await call.hangup();
    },
    within(30_000),
  );
});
