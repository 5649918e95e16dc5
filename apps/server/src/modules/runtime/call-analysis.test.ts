import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { testClient } from "../../../test/api-client.ts";
import { createFakeCallLeg } from "../../../test/fake-call-leg.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { concat, demoFrontDesk, silence, spokenFixture } from "../../../test/voice-fixtures.ts";
import { parseWav } from "../../audio/pcm.ts";
import { conversationLogs, conversationMessages, conversations } from "../../db/schema/index.ts";
import { createLanguageModel } from "../../providers/llm/language-model.ts";
import { modelAnalysis, sandboxAnalysis } from "./call-analysis.ts";
import { analyzeConversationJob } from "./jobs.ts";

/**
 * Post-call analysis and redaction (issue 35 items 3 and 4), end to end on the sandbox model: a call whose
 * caller gives a card number, a callback number and says it is urgent. The recogniser is a local stand-in of
 * a hosted one (STT_PROVIDER=openai) that hears the scripted words, so the test knows what was "said".
 */

const CARD = "4111 1111 1111 1111";
const SAID = `My card number is ${CARD}, please call me back on 555 123 4567, it is urgent.`;

let app: FastifyInstance;
let stt: Server;
let receiver: Server;
let hooks = "";
const received: { type: string; data: Record<string, unknown>; body: string }[] = [];
let frontDeskId: number;
let token: string;
let speech: Int16Array;

function listen(server: Server) {
  return new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  // The hosted recogniser's stand-in: every utterance is heard as SAID.
  stt = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: SAID }));
    });
  });
  receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const payload = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      received.push({ ...payload, body });
      res.writeHead(200).end();
    });
  });
  const [sttUrl, receiverUrl] = await Promise.all([listen(stt), listen(receiver)]);
  hooks = `${receiverUrl}/hooks`;
  [app, speech] = await Promise.all([
    buildTestApp({
      DEMO_DATA: "true",
      OUTBOUND_ALLOWLIST: "127.0.0.1:*",
      STT_PROVIDER: "openai",
      OPENAI_SPEECH_API_KEY: "test-key",
      OPENAI_SPEECH_URL: `${sttUrl}/v1`,
    }),
    // One utterance with no pause in it (the stand-in hears it as SAID): a single caller turn.
    spokenFixture("Do you see children?"),
  ]);
  const demo = await demoFrontDesk(app);
  frontDeskId = demo.agent.id;
  token = demo.ownerToken;
}, within(120_000));
afterAll(async () => {
  await app?.close();
  stt?.close();
  receiver?.close();
});

const owner = () => testClient(app)(token);

async function until<T>(read: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + within(ms);
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("not in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("post-call analysis and redaction", () => {
  it("the owner defines the analysis and turns card-number redaction on", async () => {
    const { staging } = await owner().call(api.getCampaigns, { query: { agentId: frontDeskId } });
    const saved = await owner().call(api.saveCampaign, {
      body: {
        agentId: frontDeskId,
        agentInstructions: staging.agentInstructions,
        analysis: {
          successRule: "booked an appointment or answered the question",
          fields: [
            { name: "callbackNumber", type: "text", description: "The number to call back" },
            { name: "urgent", type: "boolean", description: "The caller says it is urgent" },
            { name: "reason", type: "text", description: "Why they called" },
            {
              name: "department",
              type: "enum",
              description: "Who should call back",
              options: ["sales", "billing"],
            },
          ],
        },
      },
    });
    expect(saved.campaign.analysis.fields.map((f) => f.name)).toEqual([
      "callbackNumber",
      "urgent",
      "reason",
      "department",
    ]);
    // A field named like a key every call has is refused.
    await expect(
      owner().call(api.saveCampaign, {
        body: {
          agentId: frontDeskId,
          agentInstructions: staging.agentInstructions,
          analysis: { successRule: null, fields: [{ name: "duration", type: "number" }] },
        },
      }),
    ).rejects.toThrow(/already a field of every call/);
    const settings = await owner().call(api.saveAccountSetting, {
      body: {
        settings: {
          redaction: { cardNumbers: true, ssn: true, datesOfBirth: true, emails: true, phoneNumbers: false },
        },
      },
    });
    expect(settings.settings.redaction).toMatchObject({ cardNumbers: true, phoneNumbers: false });
    await owner().call(api.createWebhook, { body: { url: hooks, label: "analysis", type: "all" } });
  });

  it(
    "a finished call is analysed with its fields, and the card number is in no row, export, webhook or recording",
    async () => {
      const fake = createFakeCallLeg({ speed: 3 });
      const session = app.voice.startCallSession(fake.leg, {
        agentAccountId: frontDeskId,
        stage: "staging",
        settings: { recordCalls: true },
      });
      const uuid = (await session.ready) as string;
      expect(uuid).toBeTruthy();
      await fake.untilAgentDone(300);
      fake.say(concat(speech, silence(1200)));
      await fake.untilAgentDone(300);
      fake.callerHangsUp();
      const summary = await session.ended;
      expect(summary.recordingUrl).toBeTruthy();

      // The analysis, written by its job into the log row's data.
      await app.context.jobs.idle([analyzeConversationJob], 60_000);
      const analyzed = await until(() => received.find((e) => e.type === "call.analyzed" && e.data.callId));
      const db = app.context.database.db;
      const [log] = await db.select().from(conversationLogs).where(eq(conversationLogs.uuid, uuid));
      expect(log?.data).toMatchObject({
        callbackNumber: "555 123 4567",
        urgent: true,
        reason: expect.stringContaining("[card number]"),
        // The sandbox agent answered (it did not say it cannot help): the rule's second clause is met.
        callSuccessful: true,
        successEvaluation: "Met: the agent answered the questions it was asked. (nothing was booked.)",
        analysisUndetermined: "department",
        summary: expect.stringContaining("began with"),
      });
      expect(analyzed.data).toMatchObject({
        agentId: frontDeskId,
        channel: "voice",
        successful: true,
        fields: { callbackNumber: "555 123 4567", urgent: true },
        undetermined: ["department"],
        model: expect.any(String),
      });

      // A dashboard metric reads the verdict like any data field: the demo's calls have none, this one has.
      const metric = await owner().call(api.evaluateMetric, {
        body: {
          metric: {
            name: "successfulCalls",
            title: "Successful calls",
            formula: "callSuccessful = true",
            aggregation: "count",
            channels: ["voice"],
          },
        },
      });
      expect(metric.result.error).toBeNull();
      expect(metric.result.value).toBe(1);

      // Redaction: the raw card number is in no stored row of the call.
      const rows = await db.execute(sql`
      select (select coalesce(json_agg(m), '[]') from conversation_messages m where m.conversation_uuid = ${uuid})::text as messages,
             (select row_to_json(c) from conversations c where c.uuid = ${uuid})::text as conversation,
             (select row_to_json(l) from conversation_logs l where l.uuid = ${uuid})::text as log`);
      const stored = JSON.stringify(rows);
      expect(stored).toContain("[card number]");
      expect(stored).not.toMatch(/4111/);
      const userMessages = await db
        .select()
        .from(conversationMessages)
        .where(eq(conversationMessages.conversationUuid, uuid));
      expect(userMessages.find((m) => m.role === "user")?.text).toBe(
        "My card number is [card number], please call me back on 555 123 4567, it is urgent.",
      );

      // The export.
      const csv = (await owner().call(api.listLogs, {
        query: { format: "csv", fields: "uuid,summary,reason,callbackNumber,urgent,callSuccessful" },
      })) as unknown as string;
      const line = csv.split("\n").find((row) => row.includes(uuid)) ?? "";
      expect(line).toContain("[card number]");
      expect(line).not.toMatch(/4111/);

      // Every webhook body about the call.
      const ended = await until(() => received.find((e) => e.type === "call.ended"));
      expect(ended.body).toContain("[card number]");
      for (const event of received) expect(event.body).not.toMatch(/4111/);

      // The recording: the caller's turn that said it is silent; the agent's answer is still there.
      expect(log?.data.recordingSilencedTurns).toBeGreaterThanOrEqual(1);
      const file = await app.inject({ method: "GET", url: new URL(summary.recordingUrl as string).pathname });
      const wav = parseWav(new Uint8Array(file.rawPayload));
      let callerPeak = 0;
      let agentPeak = 0;
      for (let i = 0; i < wav.samples.length; i += 2) {
        callerPeak = Math.max(callerPeak, Math.abs(wav.samples[i] as number));
        agentPeak = Math.max(agentPeak, Math.abs(wav.samples[i + 1] as number));
      }
      // Nothing of the caller can be heard: at most a few samples of the fixture's fade at a turn's edge, below
      // -56 dBFS (the recogniser's own floor is 100).
      expect(callerPeak).toBeLessThanOrEqual(50);
      expect(agentPeak).toBeGreaterThan(1000);
      const [conversation] = await db.select().from(conversations).where(eq(conversations.uuid, uuid));
      expect(api.callAnalysisSchema.parse(conversation?.outcome.analysis)).toMatchObject({
        fields: { urgent: true },
      });
    },
    within(120_000),
  );

  it(
    "a test chat that ends is analysed too, and what was typed is stored redacted",
    async () => {
      const before = received.length;
      const events = await owner().call(api.testChat, {
        body: {
          agentId: frontDeskId,
          stage: "staging",
          message: "Book me in, my card is 4111-1111-1111-1111",
        },
      });
      const start = (events as unknown as string).match(/"uuid":"([^"]+)"/);
      const uuid = start?.[1] as string;
      expect(uuid).toBeTruthy();
      await owner().call(api.restartTestChat, { body: { agentId: frontDeskId, uuid } });
      await app.context.jobs.idle([analyzeConversationJob], 60_000);
      const analyzed = await until(() =>
        received.slice(before).find((e) => e.type === "call.analyzed" && e.data.channel === "web"),
      );
      expect(analyzed.body).toContain("[card number]");
      expect(analyzed.body).not.toMatch(/4111/);
      const [log] = await app.context.database.db
        .select()
        .from(conversationLogs)
        .where(eq(conversationLogs.uuid, uuid));
      expect(log?.data.summary).toEqual(expect.stringContaining("[card number]"));
    },
    within(60_000),
  );
});

describe("the sandbox model's analysis", () => {
  const base = {
    channel: "voice",
    agentName: "Front Desk",
    collected: {},
    outcome: {},
    logData: {},
  };
  const msg = (role: string, text: string, toolResults: api.ToolResult[] = []) => ({
    role,
    text,
    toolCalls: [],
    toolResults,
  });

  it("judges a booking against the rule and fills typed fields from what was said", () => {
    const result = sandboxAnalysis({
      ...base,
      collected: { appointmentBooked: true, appointmentTime: "2026-05-12T10:00" },
      messages: [
        msg("assistant", "Hi, how can I help?"),
        msg("user", "I need a cleaning, my email is jane@example.com"),
        msg("assistant", "Is this your first visit?"),
        msg("user", "Yes it is"),
        msg("assistant", "Booked.", [
          { toolCallId: "1", name: "bookAppointment", result: {}, summary: "Booked" },
        ]),
      ],
      settings: {
        successRule: "booked an appointment",
        fields: [
          { name: "email", type: "text", description: "", options: [] },
          { name: "firstVisit", type: "boolean", description: "first visit", options: [] },
          { name: "age", type: "number", description: "Their age", options: [] },
        ],
      },
    });
    expect(result).toMatchObject({
      successful: true,
      successEvaluation: "Met: an appointment was booked.",
      fields: { email: "jane@example.com", firstVisit: true },
      undetermined: ["age"],
    });
    expect(result.summary).toContain("An appointment was booked for 2026-05-12T10:00.");
  });

  it("says when the rule is beyond it", () => {
    const result = sandboxAnalysis({
      ...base,
      messages: [msg("user", "hello")],
      settings: { successRule: "the caller was happy", fields: [] },
    });
    expect(result.successful).toBeNull();
    expect(result.undetermined).toEqual(["success"]);
    expect(result.successEvaluation).toContain("cannot judge “the caller was happy”");
  });
});

describe("a real model's analysis", () => {
  it("asks for JSON of exactly the agent's fields (structured output) and keeps what it answers", async () => {
    const requests: { body: Record<string, unknown> }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        requests.push({ body: JSON.parse(body) });
        const content = JSON.stringify({
          summary: "Jane asked to be called back about a broken tooth.",
          successful: false,
          successEvaluation: "Nothing was booked and the question was not answered.",
          fields: { callbackNumber: "555 123 4567", urgent: true, visits: null, department: "billing" },
        });
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion",
            created: 1,
            model: "stand-in",
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
            usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
          }),
        );
      });
    });
    const base = await listen(server);
    try {
      const model = createLanguageModel({
        provider: "openai",
        apiKey: "test-key",
        baseUrl: `${base}/v1`,
        model: "stand-in",
        timeoutMs: 10_000,
        maxRetries: 0,
      });
      const { result, usage } = await modelAnalysis(model, {
        channel: "voice",
        agentName: "Front Desk",
        collected: {},
        outcome: {},
        logData: {},
        messages: [
          { role: "user", text: "My tooth broke, call me on 555 123 4567", toolCalls: [], toolResults: [] },
        ],
        settings: {
          successRule: "booked an appointment or answered the question",
          fields: [
            { name: "callbackNumber", type: "text", description: "Number to call back", options: [] },
            { name: "urgent", type: "boolean", description: "", options: [] },
            { name: "visits", type: "number", description: "Visits so far", options: [] },
            { name: "department", type: "enum", description: "", options: ["sales", "billing"] },
          ],
        },
      });
      expect(result).toEqual({
        summary: "Jane asked to be called back about a broken tooth.",
        successful: false,
        successEvaluation: "Nothing was booked and the question was not answered.",
        fields: { callbackNumber: "555 123 4567", urgent: true, department: "billing" },
        undetermined: ["visits"],
      });
      expect(usage).toEqual({ inputTokens: 120, outputTokens: 40 });
      // The request: a JSON schema with exactly the agent's fields, each nullable, enums as their values.
      const format = requests[0]?.body.response_format as {
        type: string;
        json_schema: { schema: { properties: { fields: { properties: Record<string, unknown> } } } };
      };
      expect(format.type).toBe("json_schema");
      const fields = format.json_schema.schema.properties.fields.properties;
      expect(Object.keys(fields)).toEqual(["callbackNumber", "urgent", "visits", "department"]);
      expect(JSON.stringify(fields.department)).toContain('"billing"');
      expect(JSON.stringify(requests[0]?.body.messages)).toContain("My tooth broke");
    } finally {
      server.close();
    }
  });
});
