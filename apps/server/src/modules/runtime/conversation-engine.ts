import type { ToolCall, ToolResult } from "@switchboard/api";
import { cleanText, cleanTextDeep } from "@switchboard/core";
import { type ModelMessage, stepCountIs, streamText, type ToolSet } from "ai";
import type { FastifyBaseLogger } from "fastify";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import { describeModelFailure, type ModelFailure } from "../../providers/llm/llm-errors.ts";

/**
 * The conversation engine: one agent turn, whatever the model. It streams the model's text as it comes,
 * lets the model call the agent's tools (arguments checked, refusals fed back), stops after a bounded number
 * of model calls, and ends a failed turn with a clear message and a logged error. It stores nothing itself:
 * the caller keeps the finished turn (or the failure) from the last event.
 */

export type EngineEvent =
  | { type: "text"; delta: string }
  | ({ type: "tool-call" } & ToolCall)
  | ({ type: "tool-result" } & ToolResult);

export type TurnUsage = { inputTokens: number; outputTokens: number };

export type TurnOutcome = {
  status: "complete" | "failed";
  /** The answer; empty for a failed turn (nothing half-written is kept). */
  text: string;
  /** Text streamed before a failure, for the log only. */
  partialText: string;
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
  failure: ModelFailure | null;
  finishReason: string;
  usage: TurnUsage;
  /** Model calls made. */
  steps: number;
  firstTokenMs: number | null;
  durationMs: number;
};

export type TurnInput = {
  model: ResolvedModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** Most model calls in the turn; the last one is made without tools so the model must answer. */
  maxSteps: number;
  abortSignal?: AbortSignal;
  log?: FastifyBaseLogger;
  /** Context for the log lines. */
  logContext?: Record<string, unknown>;
};

export const STEP_LIMIT_MESSAGE = (steps: number) =>
  `The agent stopped after ${steps} steps without an answer. Please rephrase or try again.`;

/** The readable part of an argument check failure ("arguments must have required property 'x'"). */
function toolErrorText(name: string, error: unknown): string {
  const message = typeof error === "string" ? error : error instanceof Error ? error.message : String(error);
  const checked = message.match(/Error message:\s*([\s\S]+)$/);
  if (checked?.[1]) return `Invalid arguments for ${name}: ${checked[1].trim()}`;
  return message;
}

/**
 * A model's streamed text made clean as it comes (a model, or a tenant's model server, may send NUL,
 * controls or broken Unicode, which would be stored, sent and spoken): a chunk ending in the first half of
 * a surrogate pair keeps it for the next chunk.
 */
function streamedTextCleaner() {
  let held = "";
  return (delta: string): string => {
    let text = held + delta;
    held = "";
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      held = text.slice(-1);
      text = text.slice(0, -1);
    }
    return cleanText(text);
  };
}

/** Runs one turn, yielding events as they happen and returning the outcome (its text clean). */
export async function* runTurn(input: TurnInput): AsyncGenerator<EngineEvent, TurnOutcome> {
  const started = performance.now();
  let firstTokenMs: number | null = null;
  let text = "";
  let steps = 0;
  let finishReason = "unknown";
  const usage: TurnUsage = { inputTokens: 0, outputTokens: 0 };
  const toolCalls: ToolCall[] = [];
  const toolResults: ToolResult[] = [];
  let failure: ModelFailure | null = null;
  let failureCause: unknown = null;
  const hasTools = Object.keys(input.tools).length > 0;
  const cleanDelta = streamedTextCleaner();
  let newStep = false;

  const result = streamText({
    model: input.model.languageModel,
    system: input.system,
    messages: input.messages,
    ...(hasTools ? { tools: input.tools } : {}),
    stopWhen: stepCountIs(input.maxSteps),
    // The last allowed call goes without tools, so the turn ends with words rather than another call.
    ...(hasTools && input.maxSteps > 1
      ? {
          prepareStep: ({ stepNumber }: { stepNumber: number }) =>
            stepNumber >= input.maxSteps - 1 ? { activeTools: [] } : undefined,
        }
      : {}),
    maxRetries: input.model.maxRetries,
    timeout: { stepMs: input.model.timeoutMs },
    ...(input.abortSignal ? { abortSignal: input.abortSignal } : {}),
    onError: () => {
      // Reported through the stream's error part below.
    },
  });

  try {
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta": {
          let delta = part.text ? cleanDelta(part.text) : "";
          if (!delta) break;
          if (firstTokenMs === null) firstTokenMs = performance.now() - started;
          // A step's words follow the last step's as a new sentence ("One moment." then "Done."), which the
          // model writes without the space between them.
          if (newStep && text && !/\s$/.test(text) && !/^[\s.,;:!?)\]]/.test(delta)) delta = ` ${delta}`;
          newStep = false;
          text += delta;
          yield { type: "text", delta };
          break;
        }
        case "tool-call": {
          const call = {
            toolCallId: part.toolCallId,
            name: part.toolName,
            arguments: cleanTextDeep(part.input),
          };
          toolCalls.push(call);
          yield { type: "tool-call", ...call };
          break;
        }
        case "tool-result": {
          // A tool's result may hold what a tenant's server answered.
          const output = cleanTextDeep(part.output) as Record<string, unknown> | null;
          const summary =
            output && typeof output === "object" && typeof output.summary === "string"
              ? output.summary
              : "Done";
          const entry = { toolCallId: part.toolCallId, name: part.toolName, result: output, summary };
          toolResults.push(entry);
          yield { type: "tool-result", ...entry };
          break;
        }
        case "tool-error": {
          const message = cleanText(toolErrorText(part.toolName, part.error));
          const entry = {
            toolCallId: part.toolCallId,
            name: part.toolName,
            error: message,
            summary: message,
          };
          toolResults.push(entry);
          yield { type: "tool-result", ...entry };
          break;
        }
        case "finish-step":
          steps++;
          newStep = true;
          usage.inputTokens += part.usage.inputTokens ?? 0;
          usage.outputTokens += part.usage.outputTokens ?? 0;
          break;
        case "finish":
          finishReason = part.finishReason;
          break;
        case "error":
          failureCause ??= part.error;
          break;
        case "abort":
          failureCause ??= Object.assign(new Error(part.reason ?? "aborted"), {
            name: input.abortSignal?.aborted ? "AbortError" : "TimeoutError",
          });
          break;
        default:
          break;
      }
    }
  } catch (error) {
    failureCause ??= error;
  }

  if (failureCause !== null) {
    const described = describeModelFailure(failureCause, input.model.timeoutMs);
    failure = { ...described, message: cleanText(described.message) };
  } else if (!text.trim()) {
    failure = {
      kind: steps >= input.maxSteps ? "step-limit" : "empty",
      message:
        steps >= input.maxSteps
          ? STEP_LIMIT_MESSAGE(steps)
          : "The language model sent an empty answer. Please try again.",
    };
    failureCause = new Error(`empty answer after ${steps} step(s), finish reason ${finishReason}`);
  }
  if (failure) {
    input.log?.error(
      {
        err: failureCause,
        kind: failure.kind,
        status: failure.status,
        provider: input.model.provider,
        model: input.model.modelId,
        steps,
        ...input.logContext,
      },
      "agent turn failed",
    );
  }
  return {
    status: failure ? "failed" : "complete",
    text: failure ? "" : text.trim(),
    partialText: text,
    toolCalls,
    toolResults,
    failure,
    finishReason: failure ? "error" : finishReason,
    usage,
    steps,
    firstTokenMs: firstTokenMs === null ? null : Math.round(firstTokenMs),
    durationMs: Math.round(performance.now() - started),
  };
}

/** The model messages of stored turns: user text, the agent's tool calls with their results, its answer. */
export function toModelMessages(
  turns: readonly {
    role: string;
    text: string;
    status: string;
    toolCalls: readonly ToolCall[];
    toolResults: readonly ToolResult[];
  }[],
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const turn of turns) {
    if (turn.role === "user") {
      messages.push({ role: "user", content: turn.text });
      continue;
    }
    if (turn.role !== "assistant" && turn.role !== "operator") continue;
    // Tool calls that ran keep their results, also in a failed turn (what they did still happened).
    const answered = turn.toolCalls.filter((call) =>
      turn.toolResults.some((r) => r.toolCallId === call.toolCallId),
    );
    if (answered.length > 0) {
      messages.push({
        role: "assistant",
        content: answered.map((call) => ({
          type: "tool-call" as const,
          toolCallId: call.toolCallId,
          toolName: call.name,
          input: call.arguments ?? {},
        })),
      });
      messages.push({
        role: "tool",
        content: answered.map((call) => {
          const result = turn.toolResults.find((r) => r.toolCallId === call.toolCallId);
          return {
            type: "tool-result" as const,
            toolCallId: call.toolCallId,
            toolName: call.name,
            output:
              result?.error !== undefined
                ? { type: "error-text" as const, value: result.error }
                : { type: "json" as const, value: (result?.result ?? null) as never },
          };
        }),
      });
    }
    if (turn.status === "complete" && turn.text) messages.push({ role: "assistant", content: turn.text });
  }
  return messages;
}
