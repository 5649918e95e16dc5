import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { sandboxRespond } from "./sandbox-responder.ts";

/** What the UI shows next to the sandbox's answers. */
export const SANDBOX_LABEL = "Sandbox model";

/** The sandbox costs nothing and counts no tokens. */
const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** Text in word-sized pieces, as a streaming model sends it. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

/**
 * The offline sandbox as an AI SDK language model (specification v3), so the engine drives it exactly as it
 * drives OpenAI or Anthropic: same prompt, same tools, same tool-call loop. `now` is only a fallback: the
 * current time comes from the system prompt.
 */
export function createSandboxModel(now: () => number = Date.now): LanguageModelV3 {
  function decide(options: LanguageModelV3CallOptions) {
    const tools = (options.tools ?? []).filter((tool) => tool.type === "function");
    const toolCalls = options.prompt.filter((message) => message.role === "tool").length;
    const reply = sandboxRespond(options.prompt, tools, now());
    return { reply, toolCallId: `sandbox-call-${toolCalls + 1}` };
  }

  return {
    specificationVersion: "v3",
    provider: "sandbox",
    modelId: "sandbox",
    supportedUrls: {},
    async doGenerate(options) {
      const { reply, toolCallId } = decide(options);
      const content: LanguageModelV3Content[] =
        reply.kind === "text"
          ? [{ type: "text", text: reply.text }]
          : [{ type: "tool-call", toolCallId, toolName: reply.toolName, input: JSON.stringify(reply.input) }];
      return {
        content,
        finishReason: { unified: reply.kind === "text" ? "stop" : "tool-calls", raw: undefined },
        usage: NO_USAGE,
        warnings: [],
      };
    },
    async doStream(options) {
      const { reply, toolCallId } = decide(options);
      const parts: LanguageModelV3StreamPart[] = [
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", id: toolCallId, modelId: "sandbox", timestamp: new Date(now()) },
      ];
      if (reply.kind === "text") {
        parts.push({ type: "text-start", id: "text-1" });
        for (const delta of pieces(reply.text)) parts.push({ type: "text-delta", id: "text-1", delta });
        parts.push({ type: "text-end", id: "text-1" });
      } else {
        const input = JSON.stringify(reply.input);
        parts.push(
          { type: "tool-input-start", id: toolCallId, toolName: reply.toolName },
          { type: "tool-input-delta", id: toolCallId, delta: input },
          { type: "tool-input-end", id: toolCallId },
          { type: "tool-call", toolCallId, toolName: reply.toolName, input },
        );
      }
      parts.push({
        type: "finish",
        usage: NO_USAGE,
        finishReason: { unified: reply.kind === "text" ? "stop" : "tool-calls", raw: undefined },
      });
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  };
}
