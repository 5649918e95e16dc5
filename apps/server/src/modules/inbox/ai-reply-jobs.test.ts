import * as api from "@switchboard/api";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp, createSharedTestDatabase, testConfig } from "../../../test/helpers.ts";
import { type ModelScript, type ModelServer, startModelServer } from "../../../test/model-protocol-server.ts";
import { waitFor } from "../../../test/wait-for.ts";
import { buildApp } from "../../app.ts";
import { JOB_SCHEMA } from "../../jobs/schema.ts";
import { aiReplyJob } from "./jobs.ts";

const AGENT_NUMBER = "+15035550123";

function caller(app: FastifyInstance, token: string) {
  const client = testClient(app)(token);
  return {
    text: (from: string, text: string) =>
      client.call(api.sandboxInboundSms, { body: { from, to: AGENT_NUMBER, text } }),
    handset: (number: string) => client.call(api.sandboxHandset, { query: { number } }),
    messages: async (roomId: string) => {
      const answer = await client.call(api.getConversation, { params: { roomId } });
      if (!("messages" in answer)) throw new Error(`${roomId} answered a list, not a conversation`);
      return answer.messages;
    },
  };
}

const modelEnv = (server: ModelServer, env: Record<string, string> = {}) => ({
  LLM_PROVIDER: "openai-compatible",
  LLM_BASE_URL: server.url,
  LLM_MODEL: "local-model",
  LLM_MAX_RETRIES: "0",
  ...env,
});

let server: ModelServer | null = null;
const apps: FastifyInstance[] = [];
async function model(script: ModelScript) {
  server = await startModelServer(script);
  return server;
}
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  await server?.close();
  server = null;
});

describe("AI replies are durable jobs", () => {
  let drop: (() => Promise<unknown>) | null = null;
  afterAll(async () => {
    await drop?.();
  });

  // A server stopped and another started on its database: on a busy machine that alone takes half a minute.
  it("a reply queued when the server stops is sent once by the next server on the same database", {
    timeout: within(30_000),
  }, async () => {
    const shared = await createSharedTestDatabase();
    drop = shared.drop;
    // The first server's model never answers; the next one's does.
    let answering = false;
    const models = await model(() =>
      answering ? { text: "We open at 8am tomorrow." } : { hang: "before-headers" },
    );
    // Half of the shutdown grace for running replies, then they are aborted and released.
    const env = modelEnv(models, { SHUTDOWN_GRACE_MS: "400" });
    const first = await buildApp(testConfig(env), { database: await shared.open() });
    const world = await buildHierarchy(first);
    await prepareSmsAgent(first, world, { number: AGENT_NUMBER, instructions: "Opening hours: 8am-5pm." });
    const token = world.members.o1Owner.token;
    const { roomId } = await caller(first, token).text("+15035550177", "When do you open tomorrow?");
    // The reply is running: the model has the request and has not answered.
    await waitFor(
      async () => models.requests.length,
      (n) => n >= 1,
      within(15_000),
    );
    await first.close();
    expect(models.requests).toHaveLength(1);

    answering = true;
    const second = await buildApp(testConfig(env), { database: await shared.open() });
    apps.push(second);
    const phone = caller(second, token);
    const handset = await waitFor(
      () => phone.handset("+15035550177"),
      (h) => h.messages.length >= 2,
      within(15_000),
    );
    await second.context.jobs.idle([aiReplyJob]);
    expect((await phone.handset("+15035550177")).messages.map((m) => [m.direction, m.text])).toEqual([
      ["inbound", "When do you open tomorrow?"],
      ["outbound", "We open at 8am tomorrow."],
    ]);
    expect(handset.messages).toHaveLength(2);
    // The interrupted turn left nothing in the room: the question and the one answer.
    expect((await phone.messages(roomId)).map((m) => [m.role, m.text, m.status])).toEqual([
      ["user", "When do you open tomorrow?", "complete"],
      ["assistant", "We open at 8am tomorrow.", "complete"],
    ]);
    expect(models.requests).toHaveLength(2);
  });

  it("a reply whose model is down is retried, then shows as a failed job and one failed turn", {
    timeout: within(30_000),
  }, async () => {
    const models = await model(() => ({ status: 503 }));
    const app = await buildTestApp(modelEnv(models));
    apps.push(app);
    const world = await buildHierarchy(app);
    await prepareSmsAgent(app, world, { number: AGENT_NUMBER });
    const phone = caller(app, world.members.o1Owner.token);
    const { roomId } = await phone.text("+15035550166", "Are you open on Saturday?");
    const { jobs } = app.context;
    // The retries wait 2 s, 4 s, 8 s, 16 s (with jitter); the test moves each due time to now.
    const failed = await waitFor(
      async () => {
        await app.context.database.db.execute(
          sql.raw(
            `update ${JOB_SCHEMA}.job set start_after = now() where name = '${aiReplyJob.name}' and state = 'retry'`,
          ),
        );
        jobs.wake(aiReplyJob);
        return jobs.failed(aiReplyJob);
      },
      (rows) => rows.length > 0,
      20_000,
    );
    expect(failed).toEqual([
      expect.objectContaining({
        key: roomId,
        data: { roomId },
        retryCount: aiReplyJob.options.retryLimit,
        error: expect.any(String),
      }),
    ]);
    // One model call per attempt, and nothing was texted.
    expect(models.requests).toHaveLength(aiReplyJob.options.retryLimit + 1);
    expect((await phone.handset("+15035550166")).messages.map((m) => m.direction)).toEqual(["inbound"]);
    // The room shows the failed turn once (the attempts before the last left nothing).
    const messages = await waitFor(
      () => phone.messages(roomId),
      (m) => m.length >= 2,
      within(15_000),
    );
    expect(messages.map((m) => [m.role, m.status])).toEqual([
      ["user", "complete"],
      ["assistant", "failed"],
    ]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)(
  "two server instances on one PostgreSQL (needs DATABASE_URL: PGlite is one process's own database)",
  () => {
    let drop: (() => Promise<unknown>) | null = null;
    afterAll(async () => {
      await drop?.();
    });

    it("never send the same reply twice, and answer every room", async () => {
      const shared = await createSharedTestDatabase();
      drop = shared.drop;
      // A slow model, so that replies of both instances overlap.
      const models = await model((request) => ({
        text: `Noted: ${String(request.body?.messages?.at(-1)?.content ?? "").slice(0, 40)}`,
        chunkDelayMs: 40,
      }));
      const env = modelEnv(models);
      const a = await buildApp(testConfig(env), { database: await shared.open() });
      apps.push(a);
      const world = await buildHierarchy(a);
      await prepareSmsAgent(a, world, { number: AGENT_NUMBER });
      const b = await buildApp(testConfig(env), { database: await shared.open() });
      apps.push(b);
      const token = world.members.o1Owner.token;
      const [onA, onB] = [caller(a, token), caller(b, token)];
      const handsets = Array.from({ length: 6 }, (_, i) => `+1503555020${i}`);
      // Each handset texts twice in quick succession, once through each instance.
      const rooms = await Promise.all(
        handsets.map(async (number, i) => {
          const { roomId } = await (i % 2 ? onB : onA).text(number, `First question ${i}`);
          await (i % 2 ? onA : onB).text(number, `Second question ${i}`);
          return roomId;
        }),
      );
      await Promise.all([
        a.context.jobs.idle([aiReplyJob], 60_000),
        b.context.jobs.idle([aiReplyJob], 60_000),
      ]);
      for (const [i, roomId] of rooms.entries()) {
        const messages = await onA.messages(roomId);
        const roles = messages.map((m) => m.role);
        // Every question is followed by at most one answer, and the room ends answered.
        expect(roles.join(" "), `room ${i}`).not.toContain("assistant assistant");
        expect(roles.at(-1)).toBe("assistant");
        const answers = messages.filter((m) => m.role === "assistant");
        expect(answers.every((m) => m.status === "complete")).toBe(true);
        // Each answer reached the handset exactly once.
        const outbound = (await onA.handset(handsets[i] as string)).messages.filter(
          (m) => m.direction === "outbound",
        );
        expect(outbound.map((m) => m.text).sort()).toEqual(answers.map((m) => m.text).sort());
      }
    });
  },
);
