import * as api from "@switchboard/api";
import { wallTimeOf } from "@switchboard/core";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, type TestClient, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import {
  type ModelServer,
  parseServerSentEvents,
  startModelServer,
} from "../../../test/model-protocol-server.ts";
import {
  conversationLogs,
  orgModelSettings,
  outboxMessages,
  runtimeUsage,
  scheduleBookings,
} from "../../db/schema/index.ts";
import { SANDBOX_MESSAGES } from "../../providers/llm/sandbox-responder.ts";

const INSTRUCTIONS = [
  "You are the receptionist of {clinicName}, a dental practice at 12 Harbour Street, Portland.",
  "Opening hours: Mon-Fri 8am-5pm.",
  "Parking: free parking behind the building.",
  "Transfer urgent calls to {transferNumber}.",
  "",
  "Q: Do you see children?",
  "A: Yes, we see children from age 3, and the first visit is free.",
  "Q: How much is a cleaning?",
  "A: A cleaning costs $120 without insurance.",
].join("\n");

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let client: TestClient;
/** The content type of the last answer the client read (the test chat's must be an event stream). */
let lastContentType = "";
let token: string;
let agentId: number;
let orgId: number;

async function chat(body: Omit<api.RouteBody<typeof api.testChat>, "agentId">) {
  // The test chat answers server-sent events (text), which the client hands back as text.
  const res: unknown = await client(token).call(api.testChat, { body: { agentId, ...body } });
  expect(lastContentType).toContain("text/event-stream");
  // biome-ignore lint/suspicious/noExplicitAny: events are asserted field by field.
  return parseServerSentEvents(res as string) as { event: string; data: any }[];
}

const transcript = (roomId: string, uuid: string, as = token) =>
  client(as).call(api.getConversationTranscript, { params: { roomId, uuid } });
const saveModel = (body: api.RouteBody<typeof api.saveModelSettings>) =>
  client(token).call(api.saveModelSettings, { body });

const textOf = (events: { event: string; data: { delta?: string } }[]) =>
  events
    .filter((e) => e.event === "text")
    .map((e) => e.data.delta)
    .join("");

beforeAll(async () => {
  // The tests' model servers listen on loopback: the operator allows it, as for a model on the same machine.
  app = await buildTestApp({ OUTBOUND_ALLOWLIST: "127.0.0.1:*" });
  world = await buildHierarchy(app);
  client = testClient(app, {
    onResponse: (response) => {
      lastContentType = response.headers.get("content-type") ?? "";
    },
  });
  token = world.members.o1Owner.token;
  agentId = world.accounts.A1.id;
  orgId = world.accounts.O1.id;
  await client(token).call(api.saveCampaign, {
    body: {
      agentId,
      agentInstructions: INSTRUCTIONS,
      greeting: "Thank you for calling {clinicName}, how can I help you today?",
      variables: { clinicName: "Bluebird Dental", transferNumber: "+15035550100" },
      timezone: "America/Los_Angeles",
      language: "en-US",
      apps: [
        { appId: "schedule", version: "1.0.0" },
        { appId: "call-transfer", version: "1.0.0" },
        { appId: "end-call", version: "1.0.0" },
        { appId: "send-sms", version: "1.0.0" },
      ],
      enabledFunctions: {
        "schedule@1.0.0": ["checkAvailability", "bookAppointment"],
        "call-transfer@1.0.0": ["transferCall"],
        "end-call@1.0.0": ["endCall"],
        "send-sms@1.0.0": ["sendSms"],
      },
      actions: [{ name: "schedule", durationMinutes: 30 }],
    },
  });
  await client(token).call(api.publishAgent, { body: { agentId } });
});
afterAll(async () => {
  await app.close();
});

describe("test chat with the sandbox model", () => {
  let roomId: string;
  let uuid: string;

  it("starts with the agent's greeting and names the model", async () => {
    const events = await chat({ stage: "staging" });
    expect(events.map((e) => e.event)).toEqual(["start", "text", "done"]);
    expect(events[0]?.data).toMatchObject({ agentId, stage: "staging", model: "Sandbox model" });
    expect(textOf(events)).toBe("Thank you for calling Bluebird Dental, how can I help you today?");
    expect(events[2]?.data).toMatchObject({ model: "Sandbox model", conversationStatus: "active" });
    roomId = events[0]?.data.roomId;
    uuid = events[0]?.data.uuid;
  });

  it("answers from the facts and the Q/A pairs of the instructions, streamed word by word", async () => {
    const hours = await chat({ uuid, message: "What are your opening hours?" });
    expect(hours.filter((e) => e.event === "text").length).toBeGreaterThan(1);
    expect(textOf(hours)).toBe("Opening hours: Mon-Fri 8am-5pm.");
    expect(hours.at(-1)?.data.text).toBe("Opening hours: Mon-Fri 8am-5pm.");
    const kids = await chat({ uuid, message: "do you treat kids?" });
    expect(textOf(kids)).toBe("Yes, we see children from age 3, and the first visit is free.");
    const parking = await chat({ uuid, message: "Is there parking?" });
    expect(textOf(parking)).toBe("Parking: free parking behind the building.");
  });

  it("says briefly that it cannot help when it cannot answer, with no word of its configuration", async () => {
    const events = await chat({ uuid, message: "What do you think about the meaning of life?" });
    expect(textOf(events)).toBe(SANDBOX_MESSAGES.fallback);
    expect(textOf(events)).toContain("I can't help with that");
    expect(textOf(events)).not.toMatch(/sandbox|LLM_PROVIDER|model/i);
  });

  it("books through the schedule tool with the date and time it read, into the account's schedule", async () => {
    const events = await chat({
      uuid,
      message: "I'd like to book a cleaning tomorrow at 3pm, my name is Jane Doe",
    });
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(["start", "tool-call", "tool-result", "text", "done"]),
    );
    const toolCall = events.find((e) => e.event === "tool-call")?.data;
    expect(toolCall).toMatchObject({
      name: "bookAppointment",
      arguments: { name: "Jane Doe", durationMinutes: 30 },
    });
    const start = Date.parse(toolCall.arguments.start);
    const wall = wallTimeOf(start, "America/Los_Angeles");
    expect([wall.hour, wall.minute]).toEqual([15, 0]);
    expect(start - Date.now()).toBeGreaterThan(0);
    expect(start - Date.now()).toBeLessThan(2 * 86_400_000);
    const result = events.find((e) => e.event === "tool-result")?.data;
    expect(result.summary).toMatch(/^Booked \w{3} \d{1,2} \w{3}, 3:00 pm for Jane Doe$/);
    expect(textOf(events)).toContain(result.summary);
    // Streaming order: the tool call, its result, then the answer's text.
    const order = events.map((e) => e.event);
    expect(order.indexOf("tool-call")).toBeLessThan(order.indexOf("tool-result"));
    expect(order.indexOf("tool-result")).toBeLessThan(order.indexOf("text"));

    const schedule = await client(token).call(api.getSchedule, { query: { agentId } });
    expect(schedule.bookings).toHaveLength(1);
    expect(schedule.bookings[0]).toMatchObject({
      name: "Jane Doe",
      start,
      status: "booked",
      roomId,
      uuid,
    });

    // The same time again is refused, and the refusal is read back to the person.
    const again = await chat({
      uuid,
      message: "Book tomorrow at 3pm for John Smith please, my name is John Smith",
    });
    expect(again.find((e) => e.event === "tool-result")?.data.error).toContain("is already booked");
    expect(textOf(again)).toContain("I couldn't complete bookAppointment");
  });

  it("asks for what a booking still needs", async () => {
    const events = await chat({ uuid, message: "Can I make an appointment?" });
    expect(textOf(events)).toBe(`Happy to book that. ${SANDBOX_MESSAGES.askDayAndTime}`);
  });

  it("transfers through the transfer tool to the number in the instructions", async () => {
    const events = await chat({ uuid, message: "Can I speak to a person?" });
    expect(events.find((e) => e.event === "tool-call")?.data).toMatchObject({
      name: "transferCall",
      arguments: { destination: "+15035550100" },
    });
    expect(textOf(events)).toContain("Transferring to +1 (503) 555-0100");
  });

  it("stores the conversation: transcript in order, with tool calls, and one log row", async () => {
    const res = await transcript(roomId, uuid);
    const entries = res.conversation;
    expect(entries[0]).toMatchObject({
      role: "assistant",
      text: "Thank you for calling Bluebird Dental, how can I help you today?",
    });
    expect(entries[1]).toMatchObject({ role: "user", text: "What are your opening hours?" });
    expect(entries[2]).toMatchObject({
      role: "assistant",
      text: "Opening hours: Mon-Fri 8am-5pm.",
      model: "Sandbox model",
    });
    const booking = entries.find((e) => e.toolCalls.length > 0);
    expect(booking).toMatchObject({
      toolCalls: [{ name: "bookAppointment" }],
      toolResults: [{ name: "bookAppointment" }],
    });
    expect(res.info).toMatchObject({
      roomId,
      uuid,
      agentId,
      channel: "web",
      stage: "staging",
      status: "active",
    });
    // A chat has no line to hand over: the transfer is a request, and the log row does not count it.
    expect(res.info.collected).toMatchObject({ appointmentBooked: true, transferRequested: true });

    const logs = await app.context.database.db
      .select()
      .from(conversationLogs)
      .where(eq(conversationLogs.uuid, uuid));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      orgId,
      accountId: orgId,
      agentId,
      roomId,
      direction: "inbound",
      transfer: "0",
      // Issue #23 item 6: the web channel's own addresses, not the tester's e-mail or the agent's number.
      fromNumber: `user-${world.members.o1Owner.userId}`,
    });
    expect(logs[0]?.toNumber).not.toMatch(/@|^\+/);
    expect(logs[0]?.duration).toBeGreaterThanOrEqual(0);
    expect(logs[0]?.data).toMatchObject({
      appointmentBooked: true,
      channel: "web",
      stage: "staging",
      source: "test",
    });
  });

  it("meters every turn", async () => {
    const rows = await app.context.database.db
      .select()
      .from(runtimeUsage)
      .where(eq(runtimeUsage.conversationUuid, uuid));
    expect(rows.length).toBeGreaterThanOrEqual(8);
    expect(rows.every((row) => row.provider === "sandbox" && row.agentAccountId === agentId)).toBe(true);
    expect(rows.reduce((sum, row) => sum + row.messagesOut, 0)).toBeGreaterThanOrEqual(8);
  });

  it("restarts: the conversation ends and a new one starts in the same room", async () => {
    const ended = await client(token).call(api.restartTestChat, { body: { agentId, uuid } });
    expect(ended).toEqual({ success: true, roomId, uuid, status: "ended" });
    await expectRefusal(
      client(token).call(api.testChat, { body: { agentId, uuid, message: "hi" } }),
      400,
      "This conversation has ended. Restart to begin a new one.",
    );
    const next = await chat({ roomId, message: "hello" });
    expect(next[0]?.data.roomId).toBe(roomId);
    expect(next[0]?.data.uuid).not.toBe(uuid);
    expect(next.filter((e) => e.event === "done")).toHaveLength(2);
    expect(textOf(next)).toContain("Thank you for calling Bluebird Dental");
  });

  it("ends the conversation when the agent ends the call", async () => {
    const start = await chat({ message: "goodbye" });
    expect(start.find((e) => e.event === "tool-call")?.data.name).toBe("endCall");
    expect(start.at(-1)?.data.conversationStatus).toBe("ended");
  });

  it("runs the production configuration, and refuses it before the first publish", async () => {
    const events = await chat({ stage: "production", message: "How much is a cleaning?" });
    expect(textOf(events)).toContain("A cleaning costs $120 without insurance.");
    await expectRefusal(
      client(world.members.o2Owner.token).call(api.testChat, {
        body: { agentId: world.accounts.A2.id, stage: "production" },
      }),
      400,
      "This agent has not been published yet.",
    );
  });

  it("does not let another organisation read the transcript", async () => {
    const other = await expectRefusal(transcript(roomId, uuid, world.members.o2Owner.token), 404);
    expect(other.body).toEqual({ success: false, message: "Failed to fetch convo" });
  });
});

describe("runPrompt", () => {
  it("answers one prompt; tools only preview, nothing is stored", async () => {
    const before = await app.context.database.db.select().from(scheduleBookings);
    const res = await client(token).call(api.runPrompt, {
      body: { targetAgent: agentId, promptText: "Please book me for tomorrow at 10am, my name is Sam Lee" },
    });
    expect(res.model).toBe("Sandbox model");
    expect(res.toolResults[0]?.summary).toMatch(/^Would book .* 10:00 am for Sam Lee$/);
    expect(res.answer).toContain("Would book");
    expect(await app.context.database.db.select().from(scheduleBookings)).toHaveLength(before.length);
  });

  it("texts only in a real conversation", async () => {
    const outbox = await app.context.database.db.select().from(outboxMessages);
    const res = await client(token).call(api.runPrompt, {
      body: { targetAgent: agentId, promptText: "Text me the parking details at +1 503 555 0199" },
    });
    expect(res.toolCalls[0]).toMatchObject({ name: "sendSms", arguments: { to: "+15035550199" } });
    expect(res.toolResults[0]?.summary).toBe("Would text +1 (503) 555-0199");
    expect(await app.context.database.db.select().from(outboxMessages)).toHaveLength(outbox.length);
    const events = await chat({ message: "Text me the parking details at +1 503 555 0199" });
    expect(events.find((e) => e.event === "tool-result")?.data.summary).toBe(
      "Text sent to +1 (503) 555-0199",
    );
    const sent = await app.context.database.db.select().from(outboxMessages);
    expect(sent.at(-1)).toMatchObject({
      channel: "sms",
      toAddress: "+15035550199",
      body: "Parking: free parking behind the building.",
    });
  });
});

describe("drafting and suggestions with the sandbox", () => {
  it("fills the template's instructions with the field values", async () => {
    const res = await client(token, orgId).call(api.generateAgentDraft, {
      body: {
        method: "BUILD_FROM_TEMPLATE",
        templateInstructions: "You answer for {clinicName}. Hours: {hours}. Insurance: {insurance}.",
        templateGreeting: "Hello from {clinicName}!",
        fields: [
          { key: "clinicName", value: "Bluebird Dental" },
          { key: "hours", value: "Mon-Fri 8am-5pm" },
          { key: "insurance", value: ["PPO", "Delta"] },
        ],
      },
    });
    expect(res).toEqual({
      success: true,
      agentInstructions: "You answer for Bluebird Dental. Hours: Mon-Fri 8am-5pm. Insurance: PPO, Delta.",
      greeting: "Hello from Bluebird Dental!",
      model: "Sandbox model",
    });
  });

  it("checks for a greeting, business hours and a transfer rule", async () => {
    const bare = await client(token).call(api.promptSuggestions, {
      body: { agentId, agentInstructions: "You answer questions about our bakery.", greeting: null },
    });
    expect(bare.suggestions.map((s) => s.id)).toEqual(["greeting", "business-hours", "transfer-rule"]);
    const complete = await client(token).call(api.promptSuggestions, { body: { agentId } });
    expect(complete).toEqual({ success: true, suggestions: [], model: "Sandbox model" });
  });
});

describe("the organisation's own model", () => {
  let server: ModelServer;
  afterAll(async () => {
    await server?.close();
  });

  it("answers the deployment's sandbox by default, and stores a key encrypted, masked to the browser", async () => {
    const initial = await client(token).call(api.getModelSettings);
    expect(initial.settings).toEqual({
      source: "deployment",
      provider: "sandbox",
      baseUrl: null,
      model: null,
      apiKey: null,
      label: "Sandbox model",
    });
    server = await startModelServer((request, index) => {
      const tools = (request.body.tools ?? []) as { function: { name: string } }[];
      if (index === 1 && tools.length > 0)
        return {
          toolCalls: [
            { name: "bookAppointment", arguments: { start: "2030-05-21T14:00:00-07:00", name: "Ana Ruiz" } },
          ],
          usage: { input: 120, output: 30 },
        };
      if (index === 2)
        return { text: "You're booked for Tuesday at 2 pm.", usage: { input: 150, output: 12 } };
      return { text: "Hello from the real model.", usage: { input: 100, output: 8 } };
    });
    const saved = await saveModel({
      provider: "openai",
      baseUrl: server.url,
      model: "gpt-local",
      apiKey: "sk-test-1234567890abcdef",
    });
    expect(saved.settings).toEqual({
      source: "organization",
      provider: "openai",
      baseUrl: server.url,
      model: "gpt-local",
      apiKey: "sk-…cdef",
      label: "openai:gpt-local",
    });
    expect(JSON.stringify(saved)).not.toContain("1234567890");
    const [row] = await app.context.database.db
      .select()
      .from(orgModelSettings)
      .where(eq(orgModelSettings.orgId, orgId));
    expect(row?.apiKeyEncrypted).toMatch(/^v1:/);
    expect(row?.apiKeyEncrypted).not.toContain("sk-test");
    // An agent account of the organisation reads the same settings.
    const fromAgent = await client(token, agentId).call(api.getModelSettings);
    expect(fromAgent.settings.apiKey).toBe("sk-…cdef");
  });

  it("runs the test chat through it, with the key, tools and metered tokens", async () => {
    const first = await chat({ message: "hi" });
    expect(first[0]?.data.model).toBe("openai:gpt-local");
    expect(textOf(first)).toContain("Hello from the real model.");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test-1234567890abcdef");
    const uuid = first[0]?.data.uuid;
    const booked = await chat({ uuid, message: "Book me Tuesday 21 May 2030 at 2pm, I'm Ana Ruiz" });
    expect(booked.map((e) => e.event)).toEqual([
      "start",
      "tool-call",
      "tool-result",
      "text",
      "text",
      "text",
      "text",
      "text",
      "text",
      "text",
      "done",
    ]);
    expect(booked.find((e) => e.event === "tool-result")?.data.summary).toBe(
      "Booked Tue 21 May, 2:00 pm for Ana Ruiz",
    );
    expect(booked.at(-1)?.data).toMatchObject({
      model: "openai:gpt-local",
      usage: { inputTokens: 270, outputTokens: 42 },
    });
    // The history went back to the model: the greeting, the first exchange and the new message.
    const history = JSON.stringify(server.requests[1]?.body.messages);
    expect(history).toContain("Hello from the real model.");
    expect(history).toContain("Book me Tuesday");
    const usage = await app.context.database.db
      .select()
      .from(runtimeUsage)
      .where(eq(runtimeUsage.conversationUuid, uuid));
    expect(usage.map((u) => [u.provider, u.model, u.inputTokens, u.outputTokens, u.steps])).toEqual(
      expect.arrayContaining([["openai", "gpt-local", 270, 42, 2]]),
    );
  });

  it("ends a failed turn with the message, keeps no answer and writes the log row", async () => {
    await server.close();
    server = await startModelServer(() => ({ status: 401 }));
    await saveModel({ provider: "openai", baseUrl: server.url });
    const events = await chat({ message: "hello?" });
    // The greeting needs no model; the answer fails.
    expect(events.map((e) => e.event)).toEqual(["start", "text", "done", "error"]);
    expect(events[3]?.data.message).toBe(
      "The language model refused the API key (401). Check the model settings.",
    );
    const { roomId, uuid } = events[0]?.data ?? {};
    const stored = await transcript(roomId, uuid);
    expect(stored.conversation.map((e) => [e.role, e.status, e.text])).toEqual([
      ["user", "complete", "hello?"],
      ["assistant", "complete", "Thank you for calling Bluebird Dental, how can I help you today?"],
      ["assistant", "failed", ""],
    ]);
    expect(stored.conversation[2]?.error).toBe(events[3]?.data.message);
    const logs = await app.context.database.db
      .select()
      .from(conversationLogs)
      .where(eq(conversationLogs.uuid, uuid));
    expect(logs).toHaveLength(1);
  });

  it("goes back to the deployment's model", async () => {
    const res = await saveModel({ provider: "default" });
    expect(res.settings.source).toBe("deployment");
    const events = await chat({ message: "What are your opening hours?" });
    expect(events[0]?.data.model).toBe("Sandbox model");
  });

  it("refuses settings that cannot reach a model", async () => {
    await expectRefusal(
      saveModel({ provider: "openai-compatible", model: "llama3" }),
      400,
      "The OpenAI-compatible model needs a base URL.",
    );
  });
});

describe("a client that goes away mid-answer", () => {
  it("still ends and stores the turn, as failed with no answer", async () => {
    const server = await startModelServer(() => ({
      text: ["One ", "word ", "at ", "a ", "time ", "and ", "slowly."],
      chunkDelayMs: 150,
    }));
    try {
      await saveModel({ provider: "openai-compatible", baseUrl: server.url, model: "slow" });
      const address = await app.listen({ port: 0, host: "127.0.0.1" });
      const abort = new AbortController();
      // Over a real port, as a browser would: the test drops the connection mid-stream.
      const response = await fetch(`${address}/api/v2/agent/testChat?token=${token}`, {
        method: "POST",
        headers: { "content-type": "application/json", connection: "close" },
        body: JSON.stringify({ agentId, message: "Tell me something" }),
        signal: abort.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let received = "";
      while (!received.includes('"delta":"One "'))
        received += new TextDecoder().decode((await reader.read()).value);
      const start = parseServerSentEvents(received)[0]?.data as { roomId: string; uuid: string };
      abort.abort();
      await reader.cancel().catch(() => {});
      let entries: api.TranscriptEntry[] = [];
      for (let i = 0; i < 50 && entries.length < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        entries = (await transcript(start.roomId, start.uuid)).conversation;
      }
      expect(entries.map((e) => [e.role, e.status, e.text])).toEqual([
        ["user", "complete", "Tell me something"],
        ["assistant", "complete", "Thank you for calling Bluebird Dental, how can I help you today?"],
        ["assistant", "failed", ""],
      ]);
      expect(entries[2]?.error).toBe("The answer was cancelled.");
    } finally {
      await saveModel({ provider: "default" });
      await server.close();
    }
  });
});
