// Voice workers (VOICE_WORKERS): SIP calls on loopback answered by a worker process the API process
// supervises, and a worker killed (SIGKILL) mid-call: the API answers throughout, the caller is hung up,
// the call is logged once as failed, the worker starts again and takes the next call. Outbound calls: stored
// by the API process, dialled and carried by a worker, and ended once as failed when it is killed. Runs on PGlite (the API's database served
// to the worker over its IPC channel) and on PostgreSQL (DATABASE_URL: the worker connects itself).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../../vitest.time-limits.ts";
import { dialBrowser } from "../../../../test/browser-test-call.ts";
import { buildTestApp } from "../../../../test/helpers.ts";
import { dialSip, type SipTestCall } from "../../../../test/sip-test-ua.ts";
import { answerTwilioCall, streamParametersOf, twilioStream } from "../../../../test/twilio-test-stream.ts";
import { concat, demoFrontDesk, silence, spokenFixture } from "../../../../test/voice-fixtures.ts";
import { toFrames } from "../../../audio/pcm.ts";
import { accounts, conversationLogs, conversationMessages, conversations } from "../../../db/schema/index.ts";
import { DEMO_CALLED_AGENT } from "../../../demo/seed.ts";
import { DEMO_CALLERS, demoCallsJob } from "../demo-calls.ts";
import { freeUdpPort } from "../sip/sipp.ts";
import { WORKER_LOST_ERROR } from "./supervisor.ts";

let app: FastifyInstance;
let stand: http.Server;
let sipPort: number;
let base: string;
let agentId: number;
let orgId: number;
let token: string;
let question: Int16Array;

const TWILIO_AUTH_TOKEN = "twilio-test-auth-token";
const TWILIO_NUMBER = "+15035550124";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type WorkerState = {
  index: number;
  pid: number | null;
  state: string;
  calls: number;
  outboundCalls: number;
  restarts: number;
};
async function readyz(): Promise<{ status: number; workers: WorkerState[] }> {
  const answer = await fetch(`${base}/readyz`);
  const body = (await answer.json()) as { voiceWorkers?: WorkerState[] };
  return { status: answer.status, workers: body.voiceWorkers ?? [] };
}

async function until<T>(read: () => Promise<T | undefined | false>, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + within(ms);
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`${what}: not in time`);
    await sleep(100);
  }
}

const workersUp = () =>
  until(async () => {
    const { workers } = await readyz();
    return workers.length > 0 && workers.every((w) => w.state === "up") && workers;
  }, "voice workers up");

/** The call's conversation, once it exists. */
const conversationOf = (callId: string) =>
  until(async () => {
    const [row] = await app.context.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.callId, callId));
    return row;
  }, `conversation of ${callId}`);

/** The owner's API (Bearer token), as JSON. */
async function ownerApi<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

type OutboundCallView = {
  callId: string;
  status: string;
  outcome: string | null;
  error: string | null;
  conversation: { uuid: string } | null;
};
const placeCall = async (to: string) =>
  (await ownerApi<{ call: OutboundCallView }>("POST", "/api/v2/outboundCall", { agentId, to })).call;
const outboundCall = async (callId: string) =>
  (await ownerApi<{ call: OutboundCallView }>("GET", `/api/v2/outboundCall/${callId}`)).call;

const logRowsOf = (uuid: string) =>
  app.context.database.db.select().from(conversationLogs).where(eq(conversationLogs.uuid, uuid));

/** The call's log rows, once they say it failed. */
const loggedAsFailed = (uuid: string) =>
  until(async () => {
    const found = await logRowsOf(uuid);
    return found[0]?.data.callOutcome === "failed" ? found : undefined;
  }, `the call ${uuid} logged as failed`);

beforeAll(async () => {
  // A stand-in for a hosted recogniser (answers after 150 ms), so the test does not depend on offline speed.
  stand = http.createServer((request, response) => {
    request.resume();
    request.on("end", () =>
      setTimeout(() => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ text: "Do you see children?" }));
      }, 150),
    );
  });
  await new Promise<void>((resolve) => stand.listen(0, "127.0.0.1", resolve));
  sipPort = await freeUdpPort();
  [app, question] = await Promise.all([
    buildTestApp({
      DEMO_DATA: "true",
      SIP_PORT: String(sipPort),
      HOST: "127.0.0.1",
      VOICE_WORKERS: "1",
      TWILIO_AUTH_TOKEN,
      STT_PROVIDER: "openai",
      OPENAI_SPEECH_API_KEY: "stand-in",
      OPENAI_SPEECH_URL: `http://127.0.0.1:${(stand.address() as AddressInfo).port}/v1`,
    }),
    spokenFixture("Do you see children?"),
  ]);
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const demo = await demoFrontDesk(app);
  agentId = demo.agent.id;
  orgId = demo.orgId;
  token = demo.ownerToken;
  // Short calls by the agent's settings: a quick end of turn, a call of 20 s at most.
  await app.context.database.db
    .update(accounts)
    .set({
      details: {
        ...(demo.agent.details as Record<string, unknown>),
        callSettings: { endpointSilenceMs: 300, maxCallSeconds: 20, idlePromptSeconds: 8 },
      },
      // The number Twilio's calls in these tests are to.
      phoneNumber: TWILIO_NUMBER,
    })
    .where(eq(accounts.id, agentId));
  await workersUp();
}, within(120_000));

afterAll(async () => {
  await app?.close();
  stand?.closeAllConnections();
  await new Promise((resolve) => stand?.close(resolve));
});

/** Asks the question and waits until the agent's answer to it is stored. */
async function askAndHearAnswer(call: SipTestCall) {
  call.say(toFrames(concat(question, silence(600))));
  const { uuid } = await conversationOf(call.callId);
  await answered(uuid);
  return uuid;
}

/** Waits until the conversation holds the question and an answer to it. */
function answered(uuid: string) {
  return until(async () => {
    const messages = await app.context.database.db
      .select({ role: conversationMessages.role, text: conversationMessages.text })
      .from(conversationMessages)
      .where(eq(conversationMessages.conversationUuid, uuid));
    const asked = messages.findIndex((m) => m.role === "user" && /children/i.test(m.text));
    return asked >= 0 && messages.slice(asked + 1).some((m) => m.role === "assistant" && m.text.length > 0);
  }, "the agent's answer to the question");
}

describe("voice workers", () => {
  it(
    "a SIP call to the API's port is answered by a worker process and its turn is logged",
    async () => {
      const [worker] = await workersUp();
      expect(worker?.pid).not.toBe(process.pid);
      const call = await dialSip({ port: sipPort, user: String(agentId) });
      const uuid = await askAndHearAnswer(call);
      // The worker says it carries the call; the API process carries none.
      expect((await readyz()).workers[0]?.calls).toBe(1);
      await call.hangup();
      const [row] = await until(async () => {
        const rows = await logRowsOf(uuid);
        return rows.length === 1 && rows[0]?.data.callOutcome ? rows : undefined;
      }, "the call's log row");
      expect(row?.data.callOutcome).toBe("caller-hangup");
      expect(row?.data.transport).toBe("sip");
      await until(async () => (await readyz()).workers[0]?.calls === 0, "the worker's call ended");
    },
    within(60_000),
  );

  it(
    "a worker killed mid-call ends only that call, logged once as failed; the API answers throughout",
    async () => {
      const [before] = await workersUp();
      const call = await dialSip({ port: sipPort, user: String(agentId) });
      const uuid = await askAndHearAnswer(call);
      const live = await fetch(`${base}/api/v1/voice/live?targetAccountId=${orgId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await live.json()) as { calls: { uuid: string }[] }).calls.map((c) => c.uuid)).toEqual([uuid]);

      // The API is asked every 50 ms while the worker dies and starts again.
      let probing = true;
      const answers: number[] = [];
      const probes = (async () => {
        while (probing) {
          const [ready, list] = await Promise.all([
            fetch(`${base}/readyz`).then(
              (r) => r.status,
              () => 0,
            ),
            fetch(`${base}/api/v1/voice/live?targetAccountId=${orgId}`, {
              headers: { authorization: `Bearer ${token}` },
            }).then(
              (r) => r.status,
              () => 0,
            ),
          ]);
          answers.push(ready, list);
          await sleep(50);
        }
      })();
      process.kill(before?.pid ?? 0, "SIGKILL");

      const rows = await loggedAsFailed(uuid);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.data.error).toBe(WORKER_LOST_ERROR);
      const [ended] = await app.context.database.db
        .select()
        .from(conversations)
        .where(and(eq(conversations.uuid, uuid)));
      expect(ended?.status).toBe("ended");
      // The caller is hung up (BYE from the API's SIP port), not left on a silent line.
      await Promise.race([
        call.ended,
        sleep(10_000).then(() => Promise.reject(new Error("the caller was not hung up"))),
      ]);
      const after = await workersUp();
      expect(after[0]?.pid).not.toBe(before?.pid);
      expect(after[0]?.restarts).toBe((before?.restarts ?? 0) + 1);
      probing = false;
      await probes;
      expect(answers.length).toBeGreaterThan(4);
      expect(answers.filter((status) => status !== 200)).toEqual([]);
      // Nothing listed as live any more.
      const listed = await fetch(`${base}/api/v1/voice/live?targetAccountId=${orgId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await listed.json()) as { calls: unknown[] }).calls).toEqual([]);

      // The restarted worker takes the next call.
      const next = await dialSip({ port: sipPort, user: String(agentId) });
      const nextUuid = await askAndHearAnswer(next);
      await next.hangup();
      await until(async () => {
        const found = await logRowsOf(nextUuid);
        return found.length === 1 && found[0]?.data.callOutcome === "caller-hangup";
      }, "the next call logged");
      // Still once for the killed call.
      const failed = await app.context.database.db
        .select({ uuid: conversationLogs.uuid })
        .from(conversationLogs)
        .where(inArray(conversationLogs.uuid, [uuid]));
      expect(failed).toHaveLength(1);
    },
    within(90_000),
  );

  it(
    "an outbound call is dialled and carried by a worker; the API process only stores it",
    async () => {
      await workersUp();
      // The sandbox carrier's person answers "Hello?" and hangs up once the agent has spoken.
      const placed = await placeCall("+15035550171");
      expect(placed.status).toBe("dialing");
      await until(async () => {
        const [worker] = (await readyz()).workers;
        return worker?.outboundCalls === 1 && worker.calls === 1;
      }, "the worker carrying the outbound call");
      const ended = await until(async () => {
        const call = await outboundCall(placed.callId);
        return call.status === "completed" ? call : undefined;
      }, "the outbound call's end");
      expect(ended).toMatchObject({ outcome: "answered", error: null });
      const rows = await logRowsOf(ended.conversation?.uuid ?? "");
      expect(rows).toHaveLength(1);
      expect(rows[0]?.data).toMatchObject({ outboundCallId: placed.callId, answeredBy: "person" });
      await until(async () => {
        const [worker] = (await readyz()).workers;
        return worker?.outboundCalls === 0 && worker.calls === 0;
      }, "the worker's outbound call ended");
    },
    within(60_000),
  );

  it(
    "a worker killed mid outbound call: the call ends once as failed, the next one is dialled again",
    async () => {
      const [before] = await workersUp();
      const placed = await placeCall("+15035550172");
      await until(async () => (await readyz()).workers[0]?.calls === 1, "the outbound call answered");
      const { uuid } = await until(async () => {
        const [row] = await app.context.database.db
          .select()
          .from(conversations)
          .where(
            and(
              eq(conversations.status, "active"),
              eq(conversations.channel, "voice"),
              eq(conversations.direction, "outbound"),
            ),
          );
        return row;
      }, "the outbound call's conversation");
      process.kill(before?.pid ?? 0, "SIGKILL");
      const failed = await until(async () => {
        const call = await outboundCall(placed.callId);
        return call.status === "completed" ? call : undefined;
      }, "the outbound call ended");
      expect(failed).toMatchObject({ outcome: "failed", error: WORKER_LOST_ERROR });
      const rows = await loggedAsFailed(uuid);
      expect(rows).toHaveLength(1);

      const after = await workersUp();
      expect(after[0]?.pid).not.toBe(before?.pid);
      const next = await placeCall("+15035550173");
      const nextEnded = await until(async () => {
        const call = await outboundCall(next.callId);
        return call.status === "completed" ? call : undefined;
      }, "the next outbound call's end");
      expect(nextEnded.outcome).toBe("answered");
    },
    within(90_000),
  );

  /** A browser test call to the API's socket, once the agent has greeted it. */
  async function browserCall() {
    const call = dialBrowser(base.replace(/^http/, "ws"), `token=${token}&agentId=${agentId}`);
    const ready = await until(
      async () => call.messages.find((m) => m.type === "ready") as { uuid: string } | undefined,
      "the browser call ready",
    );
    await until(async () => call.captions("agent").length > 0, "the greeting's caption");
    return { call, uuid: ready.uuid };
  }

  it(
    "a browser call's socket stays with the API process; a worker runs its pipeline",
    async () => {
      await workersUp();
      const { call, uuid } = await browserCall();
      expect((await readyz()).workers[0]?.calls).toBe(1);
      call.say(concat(question, silence(600)));
      await until(
        async () =>
          call.captions("caller").some((text) => /children/i.test(text)) && call.captions("agent").length > 1,
        "the answer's caption",
      );
      // The agent's audio reached the browser, paced by the API process's socket: a second of it at least
      // (the notice may be cut short by the question, and the answer is still being played).
      await until(
        async () => call.frames.filter((frame) => frame.level > 0.01).length > 50,
        "a second of the agent's audio at the browser",
      );
      call.stop();
      call.socket.close();
      const [row] = await until(async () => {
        const rows = await logRowsOf(uuid);
        return rows.length === 1 && rows[0]?.data.callOutcome ? rows : undefined;
      }, "the browser call's log row");
      expect(row?.data).toMatchObject({ transport: "browser", callOutcome: "caller-hangup" });
      await until(async () => (await readyz()).workers[0]?.calls === 0, "the worker's call ended");
    },
    within(60_000),
  );

  it(
    "a worker killed mid browser call: the browser is told the call failed and it is logged once",
    async () => {
      const [before] = await workersUp();
      const { call, uuid } = await browserCall();
      process.kill(before?.pid ?? 0, "SIGKILL");
      const ended = await until(
        async () =>
          call.messages.find((m) => m.type === "ended") as { outcome: string; reason: string } | undefined,
        "the browser told the call ended",
      );
      expect(ended).toMatchObject({ outcome: "failed", reason: WORKER_LOST_ERROR });
      await until(async () => call.closed, "the socket closed");
      const rows = await loggedAsFailed(uuid);
      expect(rows).toHaveLength(1);
      await workersUp();
    },
    within(60_000),
  );

  it(
    "a Twilio media stream stays with the API process; a worker runs its pipeline, speech both ways",
    async () => {
      await workersUp();
      // Its own id on a retry: the log rows are found by it.
      const callSid = `CA${Date.now()}`;
      const answer = await answerTwilioCall(app, TWILIO_AUTH_TOKEN, callSid, { to: TWILIO_NUMBER });
      const caller = twilioStream(app, callSid, streamParametersOf(answer.body));
      await caller.opened;
      // The notice and the greeting come back as μ-law media over the API process's socket, played by the
      // worker's pipeline.
      await until(
        async () => caller.played.filter((p) => p.level > 1000).length > 50,
        "a second of the agent's speech at Twilio",
      );
      expect((await readyz()).workers[0]?.calls).toBe(1);
      await caller.untilQuiet();
      const greeting = caller.played.length;
      caller.say(concat(question, silence(600)));
      // The question heard and answered (stored), and the answer's audio back over the socket.
      await answered((await conversationOf(callSid)).uuid);
      await until(async () => caller.played.length - greeting > 25, "the answer's audio back at Twilio");
      caller.stop();
      const [row] = await until(async () => {
        const rows = await app.context.database.db
          .select()
          .from(conversationLogs)
          .where(eq(conversationLogs.callId, callSid));
        return rows.length === 1 && rows[0]?.data.callOutcome ? rows : undefined;
      }, "the Twilio call's log row");
      expect(row?.data).toMatchObject({ transport: "twilio", callOutcome: "caller-hangup" });
      await until(async () => (await readyz()).workers[0]?.calls === 0, "the worker's call ended");
    },
    within(60_000),
  );

  // Last: the demo's other calls go on in the worker until the app closes.
  it(
    "the demo's simulated calls are made in a worker",
    async () => {
      await workersUp();
      await app.context.jobs.send(demoCallsJob, { agentUsername: DEMO_CALLED_AGENT });
      const first = DEMO_CALLERS[0]?.from ?? "";
      const { uuid } = await until(async () => {
        const [worker] = (await readyz()).workers;
        const [row] = await app.context.database.db
          .select()
          .from(conversations)
          .where(and(eq(conversations.fromAddress, first), eq(conversations.status, "active")));
        return worker?.calls === 1 && row;
      }, "the first demo call, carried by the worker");
      // It talks with the agent there and is logged when it ends (the other two follow; the app's close
      // stops them).
      const [row] = await until(async () => {
        const rows = await logRowsOf(uuid);
        return rows[0]?.data.callOutcome ? rows : undefined;
      }, "the first demo call's log row");
      expect(row?.fromNumber).toBe(first);
      expect(row?.data.callOutcome).not.toBe("failed");
    },
    within(90_000),
  );
});
