import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local model server for tests and benchmarks that speaks the two streaming protocols the real providers
 * use: OpenAI chat completions (`POST /v1/chat/completions`, SSE `data:` chunks with text and tool-call
 * deltas, a usage chunk, `[DONE]`) and Anthropic messages (`POST /v1/messages`, typed SSE events). Each
 * request is answered by the test's script: a reply, an HTTP error, a broken stream or no answer at all.
 * It listens on 127.0.0.1 only.
 */

export type ScriptedToolCall = { id?: string; name: string; arguments: Record<string, unknown> | string };

export type ModelReply =
  | {
      /** Text in chunks (an array is sent chunk by chunk; a string word by word). */
      text?: string | string[];
      toolCalls?: ScriptedToolCall[];
      usage?: { input: number; output: number };
      /** Pause between chunks, ms. */
      chunkDelayMs?: number;
    }
  | { status: number; body?: string; headers?: Record<string, string> }
  | { malformed: string }
  | { hang: "before-headers" | "mid-stream" };

export type RecordedRequest = {
  path: string;
  headers: IncomingMessage["headers"];
  // biome-ignore lint/suspicious/noExplicitAny: the request bodies of two protocols, read loosely by tests.
  body: any;
};

export type ModelScript = (request: RecordedRequest, index: number) => ModelReply | Promise<ModelReply>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function chunksOf(text: string | string[] | undefined): string[] {
  if (text === undefined) return [];
  return Array.isArray(text) ? text : (text.match(/\S+\s*|\s+/g) ?? [text]);
}

const argumentsText = (call: ScriptedToolCall) =>
  typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);

/** Splits a string in two halves, so tool arguments arrive as several deltas. */
const halves = (text: string) => [
  text.slice(0, Math.ceil(text.length / 2)),
  text.slice(Math.ceil(text.length / 2)),
];

async function writeOpenAi(
  res: ServerResponse,
  reply: Extract<ModelReply, { text?: unknown }>,
  model: string,
) {
  const send = async (payload: unknown) => {
    res.write(`data: ${JSON.stringify(payload)}\n\n`);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  };
  const base = { id: "chatcmpl-local", object: "chat.completion.chunk", created: 1_700_000_000, model };
  await send({
    ...base,
    choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
  });
  for (const chunk of chunksOf(reply.text))
    await send({ ...base, choices: [{ index: 0, delta: { content: chunk }, finish_reason: null }] });
  (reply.toolCalls ?? []).forEach((call, index) => {
    call.id ??= `call_${index + 1}`;
  });
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    await send({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    for (const part of halves(argumentsText(call)))
      await send({
        ...base,
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index, function: { arguments: part } }] },
            finish_reason: null,
          },
        ],
      });
  }
  await send({
    ...base,
    choices: [{ index: 0, delta: {}, finish_reason: reply.toolCalls?.length ? "tool_calls" : "stop" }],
  });
  const usage = reply.usage ?? { input: 10, output: 5 };
  await send({
    ...base,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  });
  res.write("data: [DONE]\n\n");
  res.end();
}

async function writeAnthropic(
  res: ServerResponse,
  reply: Extract<ModelReply, { text?: unknown }>,
  model: string,
) {
  const send = async (type: string, payload: Record<string, unknown>) => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  };
  const usage = reply.usage ?? { input: 10, output: 5 };
  await send("message_start", {
    message: {
      id: "msg_local",
      type: "message",
      role: "assistant",
      content: [],
      model,
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1 },
    },
  });
  let index = 0;
  const text = chunksOf(reply.text);
  if (text.length > 0) {
    await send("content_block_start", { index, content_block: { type: "text", text: "" } });
    for (const chunk of text)
      await send("content_block_delta", { index, delta: { type: "text_delta", text: chunk } });
    await send("content_block_stop", { index });
    index++;
  }
  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    await send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: call.id ?? `toolu_${n + 1}`, name: call.name, input: {} },
    });
    for (const part of halves(argumentsText(call)))
      await send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } });
    await send("content_block_stop", { index });
    index++;
  }
  await send("message_delta", {
    delta: { stop_reason: reply.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  await send("message_stop", {});
  res.end();
}

export async function startModelServer(script: ModelScript) {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const recorded: RecordedRequest = {
      path: req.url ?? "",
      headers: req.headers,
      body: raw ? JSON.parse(raw) : null,
    };
    requests.push(recorded);
    open.add(res);
    res.on("close", () => open.delete(res));
    const reply = await script(recorded, requests.length - 1);
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(reply.body ?? JSON.stringify({ error: { message: `status ${reply.status}`, type: "error" } }));
      return;
    }
    if ("hang" in reply) {
      if (reply.hang === "mid-stream") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          recorded.path.endsWith("/messages")
            ? `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { id: "m", type: "message", role: "assistant", content: [], model: "m", stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`
            : `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "Half an ans" }, finish_reason: null }] })}\n\n`,
        );
      }
      return; // never ends: the client's timeout must.
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    if ("malformed" in reply) {
      res.end(reply.malformed);
      return;
    }
    const model = String(recorded.body?.model ?? "local-model");
    if (recorded.path.endsWith("/messages")) await writeAnthropic(res, reply, model);
    else await writeOpenAi(res, reply, model);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** Base URL of the API, as providers take it: `http://127.0.0.1:PORT/v1`. */
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type ModelServer = Awaited<ReturnType<typeof startModelServer>>;

/** The events of a server-sent event stream body, in order. */
export function parseServerSentEvents(body: string): { event: string; data: unknown }[] {
  return body
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const event = block.match(/^event: (.+)$/m)?.[1] ?? "message";
      const data = block.match(/^data: (.+)$/m)?.[1];
      return { event, data: data ? JSON.parse(data) : null };
    });
}
