import {
  ApiRequestError,
  buildQuery,
  refusalMessage,
  type TestChatEvent,
  type TestChatEventName,
  testChat,
  testChatEventSchemas,
} from "@switchboard/api";
import { authHeaders, withViewingAs } from "../../lib/api-client.ts";
import { getTargetAccountId } from "../../lib/session.ts";

export type TestChatRequest = {
  agentId: number;
  stage: "staging" | "production";
  roomId?: string;
  uuid?: string;
  message?: string;
};

/**
 * Splits a server-sent-events byte stream into events: `event:` names it, `data:` lines carry JSON, a
 * blank line ends it. Keeps partial lines across chunks.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "message";
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (line === "") {
        if (data.length > 0) yield { event, data: data.join("\n") };
        event = "message";
        data = [];
      } else if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      newline = buffer.indexOf("\n");
    }
  }
  if (data.length > 0) yield { event, data: data.join("\n") };
}

/** Checks one event against its schema; unknown events are skipped, malformed ones are an error. */
export function parseTestChatEvent(raw: { event: string; data: string }): TestChatEvent | null {
  if (!(raw.event in testChatEventSchemas)) return null;
  const name = raw.event as TestChatEventName;
  const parsed = testChatEventSchemas[name].safeParse(JSON.parse(raw.data));
  if (!parsed.success) throw new Error(`The agent's answer could not be read (${name}).`);
  return { event: name, data: parsed.data } as TestChatEvent;
}

/** POST /api/v2/agent/testChat and hands each streamed event to `onEvent` as it arrives. */
export async function streamTestChat(
  request: TestChatRequest,
  onEvent: (event: TestChatEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const query = buildQuery({ targetAccountId: getTargetAccountId() });
  const response = await withViewingAs(fetch)(`${testChat.path}${query}`, {
    method: "POST",
    headers: { ...authHeaders(), "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok || !response.body) {
    const payload: unknown = response.headers.get("content-type")?.includes("json")
      ? await response.json()
      : await response.text();
    throw new ApiRequestError(response.status, refusalMessage(response, payload), payload);
  }
  for await (const raw of readServerSentEvents(response.body)) {
    const event = parseTestChatEvent(raw);
    if (event) onEvent(event);
  }
}
