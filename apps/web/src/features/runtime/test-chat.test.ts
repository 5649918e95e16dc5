import type { TestChatEvent } from "@switchboard/api";
import { describe, expect, it, vi } from "vitest";
import { parseTestChatEvent, readServerSentEvents } from "./chat-stream.ts";
import { type TestChatBackend, TestChatSession } from "./test-chat.ts";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>) {
  const events = [];
  for await (const event of readServerSentEvents(stream)) events.push(event);
  return events;
}

describe("readServerSentEvents", () => {
  it("reads events split anywhere across chunks, with CRLF and multi-line data", async () => {
    const events = await collect(
      streamOf(
        'event: text\ndata: {"del',
        'ta":"Hi"}\n\n',
        "event: done\r\ndata: {\r\ndata: }\r\n\r\n",
        ": comment\n\n",
      ),
    );
    expect(events).toEqual([
      { event: "text", data: '{"delta":"Hi"}' },
      { event: "done", data: "{\n}" },
    ]);
  });

  it("checks each event against its schema and skips unknown ones", () => {
    expect(parseTestChatEvent({ event: "text", data: '{"delta":"a"}' })).toEqual({
      event: "text",
      data: { delta: "a" },
    });
    expect(parseTestChatEvent({ event: "ping", data: "{}" })).toBeNull();
    expect(() => parseTestChatEvent({ event: "text", data: '{"delta":1}' })).toThrow(/could not be read/);
  });
});

const usage = { inputTokens: 1, outputTokens: 2 };

function backendWith(turns: TestChatEvent[][], overrides: Partial<TestChatBackend> = {}) {
  const requests: unknown[] = [];
  const backend: TestChatBackend = {
    stream: vi.fn(async (request, onEvent) => {
      requests.push(request);
      for (const event of turns.shift() ?? []) onEvent(event);
    }),
    restart: vi.fn(async () => {}),
    errorText: (error) => (error instanceof Error ? error.message : "failed"),
    ...overrides,
  };
  return { backend, requests };
}

const start: TestChatEvent = {
  event: "start",
  data: { roomId: "room-1", uuid: "u-1", agentId: 7, stage: "staging", model: "Sandbox model" },
};

describe("TestChatSession", () => {
  it("streams the greeting, then a turn with a tool call and its result, continuing the same conversation", async () => {
    const { backend, requests } = backendWith([
      [
        start,
        { event: "text", data: { delta: "Hello, " } },
        { event: "text", data: { delta: "Bluebird!" } },
        {
          event: "done",
          data: {
            messageId: 1,
            text: "Hello, Bluebird!",
            model: "Sandbox model",
            finishReason: "stop",
            usage,
            conversationStatus: "active",
          },
        },
      ],
      [
        { ...start, data: { ...start.data, userMessageId: 2 } },
        {
          event: "tool-call",
          data: { toolCallId: "t1", name: "bookAppointment", arguments: { start: "2026-11-24T15:00" } },
        },
        {
          event: "tool-result",
          data: { toolCallId: "t1", name: "bookAppointment", result: { id: 4 }, summary: "Booked Tue 3 pm" },
        },
        { event: "text", data: { delta: "You're booked." } },
        {
          event: "done",
          data: {
            messageId: 3,
            text: "You're booked.",
            model: "Sandbox model",
            finishReason: "stop",
            usage,
            conversationStatus: "active",
          },
        },
      ],
    ]);
    const session = new TestChatSession(7, backend);
    await session.start();
    expect(session.getState().messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ["assistant", "Hello, Bluebird!", "complete"],
    ]);
    await session.send("Book me Tuesday at 3 pm");
    const state = session.getState();
    expect(requests[1]).toEqual({
      agentId: 7,
      stage: "staging",
      roomId: "room-1",
      uuid: "u-1",
      message: "Book me Tuesday at 3 pm",
    });
    expect(state.messages[1]).toMatchObject({ role: "user", text: "Book me Tuesday at 3 pm" });
    expect(state.messages[2]?.tools).toEqual([
      expect.objectContaining({ result: expect.objectContaining({ summary: "Booked Tue 3 pm" }) }),
    ]);
    expect(state.model).toBe("Sandbox model");
    expect(state.busy).toBe(false);
  });

  it("drops the half-written text of a failed turn and shows the error", async () => {
    const { backend } = backendWith([
      [
        start,
        { event: "text", data: { delta: "Half" } },
        { event: "error", data: { message: "The model did not answer in time." } },
      ],
    ]);
    const session = new TestChatSession(7, backend);
    await session.start();
    expect(session.getState().messages[0]).toMatchObject({
      text: "",
      status: "failed",
      error: "The model did not answer in time.",
    });
  });

  it("treats a stream that stops without done as a failed turn", async () => {
    const { backend } = backendWith([[start, { event: "text", data: { delta: "Cut" } }]]);
    const session = new TestChatSession(7, backend);
    await session.start();
    expect(session.getState().messages[0]?.status).toBe("failed");
  });

  it("an agent without a greeting waits for the first message: no bubble, no error", async () => {
    const reply: TestChatEvent = {
      event: "done",
      data: {
        messageId: 2,
        text: "Hello!",
        model: "Sandbox model",
        finishReason: "stop",
        usage,
        conversationStatus: "active",
      },
    };
    const { backend, requests } = backendWith([[start], [start, reply]]);
    const session = new TestChatSession(7, backend);
    await session.start();
    expect(session.getState()).toMatchObject({ messages: [], busy: false, error: null, uuid: "u-1" });
    await session.send("Hi");
    expect(requests[1]).toMatchObject({ uuid: "u-1", message: "Hi" });
    expect(session.getState().messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ["user", "Hi", "complete"],
      ["assistant", "Hello!", "complete"],
    ]);
  });

  it("restart ends the conversation on the server and starts a new one in the other stage", async () => {
    const done: TestChatEvent = {
      event: "done",
      data: {
        messageId: 1,
        text: "Hi",
        model: "m",
        finishReason: "stop",
        usage,
        conversationStatus: "ended",
      },
    };
    const { backend, requests } = backendWith([
      [start, done],
      [start, done],
    ]);
    const session = new TestChatSession(7, backend);
    await session.start();
    expect(session.getState().ended).toBe(true);
    await session.restart("production");
    expect(backend.restart).toHaveBeenCalledWith("u-1");
    expect(requests[1]).toEqual({ agentId: 7, stage: "production", roomId: "room-1" });
  });
});
