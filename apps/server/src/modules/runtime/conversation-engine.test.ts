import { isCleanText } from "@switchboard/core";
import type { FastifyBaseLogger } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { type ModelScript, type ModelServer, startModelServer } from "../../../test/model-protocol-server.ts";
import { createLanguageModel, type LlmProvider } from "../../providers/llm/language-model.ts";
import type { AgentCalendar } from "../calendars/agent-calendar.ts";
import { buildAgentTools, enabledFunctions } from "./agent-tools.ts";
import { type EngineEvent, runTurn, STEP_LIMIT_MESSAGE, type TurnOutcome } from "./conversation-engine.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import type { ToolContext, TurnState } from "./tool-executors.ts";

/**
 * The engine against a local server speaking the real providers' streaming protocols: the AI SDK's OpenAI
 * and Anthropic clients run end to end (HTTP, SSE parsing, tool-call deltas, usage, retries, timeouts).
 */

let server: ModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function errorLog() {
  const errors: { obj: Record<string, unknown>; msg: string }[] = [];
  const log = {
    error: (obj: Record<string, unknown>, msg: string) => errors.push({ obj, msg }),
  } as unknown as FastifyBaseLogger;
  return { log, errors };
}

function toolContext(state: TurnState): ToolContext {
  return {
    orgId: 1,
    agentId: 2,
    campaign: { actions: [] },
    timeZone: "America/Los_Angeles",
    channel: "web",
    roomId: null,
    conversationUuid: null,
    callerAddress: "+15035550199",
    preview: false,
    state,
    now: Date.now,
    // The transfer and end-call tools used here never touch the schedule, texts or webhooks.
    calendar: {} as AgentCalendar,
    sms: { kind: "none", send: async () => {} },
    webhookSettings: async () => null,
    toolTimeoutMs: 1000,
    outbound: { fetchText: () => Promise.reject(new Error("no webhook in these tests")) },
  };
}

async function run(
  provider: LlmProvider,
  script: ModelScript,
  options: { maxSteps?: number; timeoutMs?: number; maxRetries?: number; prompt?: string } = {},
) {
  server = await startModelServer(script);
  const model = createLanguageModel({
    provider,
    apiKey: "test-key",
    baseUrl: server.url,
    model: provider === "anthropic" ? "claude-local" : "gpt-local",
    timeoutMs: options.timeoutMs ?? 5000,
    maxRetries: options.maxRetries ?? 0,
  });
  const state: TurnState = { collected: {}, outcome: {} };
  const { log, errors } = errorLog();
  const events: EngineEvent[] = [];
  const turn = runTurn({
    model,
    system: buildSystemPrompt({
      agentName: "Front Desk",
      organizationName: "Bluebird Dental",
      campaign: {
        agentInstructions: "Transfer urgent calls to +15035550100.",
        greeting: null,
        variables: {},
        timezone: "America/Los_Angeles",
        language: "en-US",
        confirmTransfers: false,
      },
      channel: "web",
      now: Date.UTC(2030, 4, 21, 17),
    }),
    messages: [{ role: "user", content: options.prompt ?? "Please put me through to a person." }],
    tools: buildAgentTools(
      enabledFunctions({ "call-transfer@1.0.0": ["transferCall"], "end-call@1.0.0": ["endCall"] }),
      toolContext(state),
    ),
    maxSteps: options.maxSteps ?? 4,
    log,
  });
  let step = await turn.next();
  while (!step.done) {
    events.push(step.value);
    step = await turn.next();
  }
  return { outcome: step.value as TurnOutcome, events, state, errors, requests: server.requests };
}

describe.each(["openai", "anthropic"] as const)("the engine over the %s protocol", (provider) => {
  it("streams text deltas in order and reports usage", async () => {
    const { outcome, events, requests } = await run(provider, () => ({
      text: ["Hello", ", this", " is Front", " Desk."],
      usage: { input: 42, output: 7 },
    }));
    expect(events).toEqual([
      { type: "text", delta: "Hello" },
      { type: "text", delta: ", this" },
      { type: "text", delta: " is Front" },
      { type: "text", delta: " Desk." },
    ]);
    expect(outcome).toMatchObject({
      status: "complete",
      text: "Hello, this is Front Desk.",
      usage: { inputTokens: 42, outputTokens: 7 },
      steps: 1,
    });
    expect(outcome.firstTokenMs).not.toBeNull();
    // The system prompt carries the time zone, the date and the instructions.
    const sent = JSON.stringify(requests[0]?.body);
    expect(sent).toContain("America/Los_Angeles");
    expect(sent).toContain("2030-05-21T10:00:00-07:00");
    expect(sent).toContain("Transfer urgent calls to +15035550100.");
  });

  it("keeps the model's text clean: no NUL, controls, noncharacters or lone surrogates", async () => {
    const { outcome, events } = await run(provider, () => ({
      // An emoji whose two halves come in two chunks stays whole.
      text: ["Hel\u0000lo", " \ud83d", "\ude00 there\uffff", "\u0007!", " \udc00"],
    }));
    const deltas = events.map((event) => (event.type === "text" ? event.delta : ""));
    expect(deltas.join("")).toBe("Hello 😀 there! ");
    for (const delta of deltas) expect(isCleanText(delta)).toBe(true);
    expect(outcome).toMatchObject({ status: "complete", text: "Hello 😀 there!" });
  });

  it("calls tools over several steps and feeds results back", async () => {
    const { outcome, events, state, requests } = await run(provider, (_request, index) => {
      if (index === 0)
        return {
          text: ["One moment."],
          toolCalls: [{ name: "transferCall", arguments: { destination: "+15035550100", reason: "asked" } }],
        };
      if (index === 1) return { toolCalls: [{ name: "endCall", arguments: { reason: "transferred" } }] };
      // Written without the space between it and the first step's words: the engine puts it there.
      return { text: ["You are being transferred."] };
    });
    expect(events.map((e) => e.type)).toEqual([
      "text",
      "tool-call",
      "tool-result",
      "tool-call",
      "tool-result",
      "text",
    ]);
    expect(events[1]).toMatchObject({
      type: "tool-call",
      name: "transferCall",
      arguments: { destination: "+15035550100", reason: "asked" },
    });
    expect(events[2]).toMatchObject({ type: "tool-result", summary: "Transferring to +1 (503) 555-0100" });
    expect(outcome).toMatchObject({
      status: "complete",
      steps: 3,
      text: "One moment. You are being transferred.",
    });
    expect(events.at(-1)).toEqual({ type: "text", delta: " You are being transferred." });
    // Without a call to hand over, a transfer is only requested (a completed one is the call pipeline's).
    expect(state.outcome.transferRequested).toMatchObject({ destination: "+15035550100" });
    expect(state.outcome.transferred).toBeUndefined();
    expect(state.outcome.ended).toBeDefined();
    // The second request carries the first tool's result.
    expect(JSON.stringify(requests[1]?.body)).toContain("Transferring to +1 (503) 555-0100");
    expect(requests).toHaveLength(3);
  });

  it("adds no space before a step whose words go on the last step's sentence", async () => {
    const { outcome } = await run(provider, (_request, index) =>
      index === 0
        ? { text: ["Transferring you"], toolCalls: [{ name: "endCall", arguments: { reason: "done" } }] }
        : { text: [", goodbye."] },
    );
    expect(outcome).toMatchObject({ status: "complete", text: "Transferring you, goodbye." });
  });

  it("feeds an argument check failure back to the model, which corrects itself", async () => {
    const { outcome, events, requests } = await run(provider, (_request, index) => {
      if (index === 0)
        return { toolCalls: [{ name: "transferCall", arguments: { reason: "no destination" } }] };
      if (index === 1)
        return { toolCalls: [{ name: "transferCall", arguments: { destination: "+15035550100" } }] };
      return { text: "Transferring you now." };
    });
    const results = events.filter((e) => e.type === "tool-result");
    expect(results[0]).toMatchObject({
      name: "transferCall",
      error: "Invalid arguments for transferCall: arguments must have required property 'destination'",
    });
    expect(results[1]).toMatchObject({ summary: "Transferring to +1 (503) 555-0100" });
    expect(JSON.stringify(requests[1]?.body)).toContain("must have required property 'destination'");
    expect(outcome.status).toBe("complete");
  });

  it("stops at the step limit: the last call goes without tools", async () => {
    const { outcome, requests, errors } = await run(
      provider,
      () => ({ toolCalls: [{ name: "transferCall", arguments: { destination: "+15035550100" } }] }),
      { maxSteps: 3 },
    );
    expect(requests).toHaveLength(3);
    expect(requests[0]?.body.tools).toHaveLength(2);
    expect(requests[2]?.body.tools ?? []).toHaveLength(0);
    expect(outcome).toMatchObject({ status: "failed", text: "", steps: 3 });
    expect(outcome.failure?.message).toBe(STEP_LIMIT_MESSAGE(3));
    expect(errors[0]?.msg).toBe("agent turn failed");
  });

  it.each([
    [401, "The language model refused the API key (401). Check the model settings."],
    [429, "The language model is over its rate limit (429). Please try again in a moment."],
    [500, "The language model service failed (500). Please try again in a moment."],
    [503, "The language model service failed (503). Please try again in a moment."],
  ])(
    "ends the turn on HTTP %i with a clear message, a logged error and nothing kept",
    async (status, message) => {
      const { outcome, errors, requests } = await run(
        provider,
        () => ({ status, headers: { "retry-after-ms": "5" } }),
        { maxRetries: 2 },
      );
      expect(outcome).toMatchObject({ status: "failed", text: "" });
      expect(outcome.failure?.message).toBe(message);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.obj.status).toBe(status);
      // Retryable failures are retried as configured; a refused key is not.
      expect(requests).toHaveLength(status === 401 ? 1 : 3);
    },
  );

  it("retries a rate-limited call and then answers", async () => {
    const { outcome, requests } = await run(
      provider,
      (_request, index) =>
        index === 0 ? { status: 429, headers: { "retry-after-ms": "5" } } : { text: "Here I am." },
      { maxRetries: 1 },
    );
    expect(requests).toHaveLength(2);
    expect(outcome).toMatchObject({ status: "complete", text: "Here I am." });
  });

  it("ends the turn when the model does not answer in time", async () => {
    const started = Date.now();
    const { outcome, errors } = await run(provider, () => ({ hang: "before-headers" }), { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(within(3000));
    expect(outcome.failure?.message).toBe(
      "The language model did not answer within 0.3 s. Please try again.",
    );
    expect(outcome.text).toBe("");
    expect(errors[0]?.obj.kind).toBe("timeout");
  });

  it("keeps nothing of an answer whose stream stalls halfway", async () => {
    const { outcome, events } = await run(provider, () => ({ hang: "mid-stream" }), { timeoutMs: 300 });
    expect(outcome.status).toBe("failed");
    expect(outcome.text).toBe("");
    expect(outcome.failure?.kind).toBe("timeout");
    if (provider === "openai") {
      expect(events).toEqual([{ type: "text", delta: "Half an ans" }]);
      expect(outcome.partialText).toBe("Half an ans");
    }
  });

  it("ends the turn on a malformed stream", async () => {
    const { outcome, errors } = await run(provider, () => ({
      malformed:
        provider === "openai"
          ? 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {not json\n\n'
          : 'event: message_start\ndata: {"type":"message_start","message":{oops\n\n',
    }));
    expect(outcome.status).toBe("failed");
    expect(outcome.text).toBe("");
    expect(outcome.failure?.message).toBe(
      "The language model sent an answer that could not be read. Please try again.",
    );
    expect(errors).toHaveLength(1);
  });
});
