// Time to first streamed token through the conversation engine (issue 6): the real OpenAI-compatible client
// of the AI SDK against a local server speaking the chat-completions streaming protocol that answers at once,
// so what is measured is the engine's own overhead (prompt, tools, HTTP, SSE parsing, the engine loop).
// Baseline: a bare fetch of the same stream, read to its first chunk. N = 500 turns (BENCH_SIZE=smoke: 50).
// Target: engine p50 under 20 ms.

import type { AgentCalendar } from "../apps/server/src/modules/calendars/agent-calendar.ts";
import { buildAgentTools, enabledFunctions } from "../apps/server/src/modules/runtime/agent-tools.ts";
import { runTurn } from "../apps/server/src/modules/runtime/conversation-engine.ts";
import { buildSystemPrompt } from "../apps/server/src/modules/runtime/system-prompt.ts";
import { createLanguageModel } from "../apps/server/src/providers/llm/language-model.ts";
import { startModelServer } from "../apps/server/test/model-protocol-server.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const N = SMOKE ? 50 : 500;
const WARMUP = SMOKE ? 10 : 50;
const TARGET_P50_MS = 20;

const server = await startModelServer(() => ({
  text: "Thank you for calling Bluebird Dental, how can I help?",
}));
const model = createLanguageModel({
  provider: "openai-compatible",
  baseUrl: server.url,
  apiKey: "bench",
  model: "local",
  timeoutMs: 10_000,
  maxRetries: 0,
});
const system = buildSystemPrompt({
  agentName: "Front Desk",
  organizationName: "Bluebird Dental",
  campaign: {
    agentInstructions:
      "You are the receptionist of Bluebird Dental.\nOpening hours: Mon-Fri 8am-5pm.\nTransfer urgent calls to +15035550100.",
    greeting: "Thank you for calling Bluebird Dental, how can I help you today?",
    variables: {},
    timezone: "America/Los_Angeles",
    language: "en-US",
    confirmTransfers: true,
  },
  channel: "web",
  now: Date.now(),
});
const tools = buildAgentTools(
  enabledFunctions({ "call-transfer@1.0.0": ["transferCall"], "end-call@1.0.0": ["endCall"] }),
  {
    orgId: 1,
    agentId: 1,
    campaign: { actions: [] },
    timeZone: "America/Los_Angeles",
    channel: "web",
    roomId: null,
    conversationUuid: null,
    callerAddress: null,
    preview: true,
    state: { collected: {}, outcome: {} },
    now: Date.now,
    calendar: {} as AgentCalendar,
    sms: { kind: "none", send: async () => {} },
    webhookSettings: async () => null,
    toolTimeoutMs: 1000,
    outbound: { fetchText: () => Promise.reject(new Error("no webhook in this bench")) },
  },
);

async function engineFirstToken(): Promise<number> {
  const started = performance.now();
  const turn = runTurn({
    model,
    system,
    messages: [{ role: "user", content: "Hello!" }],
    tools,
    maxSteps: 5,
  });
  let first = Number.NaN;
  for (let step = await turn.next(); !step.done; step = await turn.next()) {
    if (step.value.type === "text" && Number.isNaN(first)) first = performance.now() - started;
  }
  return first;
}

async function bareFirstChunk(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "local", stream: true, messages: [{ role: "user", content: "Hello!" }] }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  const first = performance.now() - started;
  while (!(await reader.read()).done) {
    // drain
  }
  return first;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

for (let i = 0; i < WARMUP; i++) {
  await engineFirstToken();
  await bareFirstChunk();
}
const engine: number[] = [];
const bare: number[] = [];
for (let i = 0; i < N; i++) {
  engine.push(await engineFirstToken());
  bare.push(await bareFirstChunk());
}
await server.close();

const p50 = percentile(engine, 50);
const bareP50 = percentile(bare, 50);
console.log(
  `turns: ${N}${SMOKE ? " (BENCH_SIZE=smoke)" : ""}; local chat-completions server answering at once`,
);
console.log(
  `engine time to first token: p50 ${p50.toFixed(2)} ms, p95 ${percentile(engine, 95).toFixed(2)} ms, max ${Math.max(...engine).toFixed(2)} ms`,
);
console.log(
  `bare fetch to first chunk (same server): p50 ${bareP50.toFixed(2)} ms, p95 ${percentile(bare, 95).toFixed(2)} ms`,
);
console.log(
  `ratio engine/bare p50: ${(p50 / bareP50).toFixed(1)}x; engine overhead p50: ${(p50 - bareP50).toFixed(2)} ms`,
);
const bench = "engine-first-token";
reportFigure({ bench, name: "engine p50", value: p50, unit: "ms", target: TARGET_P50_MS, better: "lower" });
reportFigure({ bench, name: "engine p95", value: percentile(engine, 95), unit: "ms", better: "lower" });
reportFigure({ bench, name: "bare p50", value: bareP50, unit: "ms", better: "lower" });
reportFigure({ bench, name: "engine/bare p50", value: p50 / bareP50, unit: "x", better: "lower" });
const met = p50 < TARGET_P50_MS;
console.log(`target: engine p50 < ${TARGET_P50_MS} ms ${met ? "met" : "NOT met"}`);
if (!met && !SMOKE) process.exit(1);
