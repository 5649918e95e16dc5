import { DAY_MS } from "@switchboard/core";
import { z } from "zod";
import { idSchema, timeMsSchema, windowEndsInRange, windowRangeMessage } from "../fields.ts";
import { defineRoute } from "../route.ts";
import { AGENT_MESSAGES, stageSchema } from "./agents.ts";

/** User-facing messages of these routes; each key is its code in the catalogue (packages/api messages.ts). */
export const RUNTIME_MESSAGES = {
  conversationNotFound: "Failed to fetch convo",
  conversationEnded: "This conversation has ended. Restart to begin a new one.",
  messageRequired: "message: Enter a message.",
  roomNotFound: "Room not found",
  chooseAgent: AGENT_MESSAGES.agentRequired,
} as const;

/**
 * The agent runtime: running an agent (one prompt, or a streamed test chat), the transcript of a
 * conversation, drafting instructions and reviewing them with the model, the organisation's own model
 * settings and the account's schedule of bookings the agent made.
 */

const id = idSchema;
const agentRef = { agentId: id.optional() };

/** The label of the deployment's default model when nothing else is configured. */
export const SANDBOX_MODEL_LABEL = "Sandbox model";

export const toolCallSchema = z.object({
  toolCallId: z.string(),
  name: z.string(),
  arguments: z.unknown(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

/** A tool's answer: `result` when it ran, `error` when it refused or failed; `summary` is for people. */
export const toolResultSchema = z.object({
  toolCallId: z.string(),
  name: z.string(),
  result: z.unknown().optional(),
  error: z.string().optional(),
  summary: z.string(),
});
export type ToolResult = z.infer<typeof toolResultSchema>;

const usageSchema = z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() });

export const runPrompt = defineRoute({
  id: "runPrompt",
  method: "POST",
  path: "/api/v1/agent/runPrompt",
  summary:
    "Run one prompt against an agent (targetAgent, below the target account) and answer its reply. Nothing is stored and tools only preview what they would do (no booking, text or webhook).",
  tag: "Runtime",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    targetAgent: id,
    promptText: z.string().trim().min(1, { message: "Enter a prompt." }).max(4000),
    stage: stageSchema.default("staging"),
  }),
  response: z.object({
    success: z.literal(true),
    answer: z.string(),
    model: z.string(),
    toolCalls: z.array(toolCallSchema),
    toolResults: z.array(toolResultSchema),
    usage: usageSchema,
  }),
});

/**
 * Server-sent events of a test chat, in order. Each turn: `text` deltas and `tool-call`/`tool-result`
 * pairs as they happen, then `done` (or `error`, which ends the turn with nothing kept as the answer).
 */
export const testChatEventSchemas = {
  start: z.object({
    roomId: z.string(),
    uuid: z.string(),
    agentId: z.number().int(),
    stage: stageSchema,
    model: z.string(),
    /** The user message just stored (absent when the request carried none). */
    userMessageId: z.number().int().optional(),
  }),
  text: z.object({ delta: z.string() }),
  "tool-call": toolCallSchema,
  "tool-result": toolResultSchema,
  done: z.object({
    messageId: z.number().int(),
    text: z.string(),
    model: z.string(),
    finishReason: z.string(),
    usage: usageSchema,
    /** `ended` after the agent ended the conversation (end call). */
    conversationStatus: z.enum(["active", "ended"]),
  }),
  error: z.object({ message: z.string(), messageId: z.number().int().optional() }),
} as const;
export type TestChatEventName = keyof typeof testChatEventSchemas;
export type TestChatEvent = {
  [K in TestChatEventName]: { event: K; data: z.infer<(typeof testChatEventSchemas)[K]> };
}[TestChatEventName];

export const testChat = defineRoute({
  id: "testChat",
  method: "POST",
  path: "/api/v2/agent/testChat",
  summary:
    "Chat with an agent's staging or production configuration, streamed as server-sent events (start, text, tool-call, tool-result, done, error). Without uuid a new conversation starts (in roomId when given) and the agent's greeting is its first turn; with uuid the message continues that conversation.",
  tag: "Runtime",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    ...agentRef,
    stage: stageSchema.default("staging"),
    roomId: z.string().min(1).max(100).optional(),
    uuid: z.string().min(1).max(100).optional(),
    message: z.string().trim().min(1).max(4000).optional(),
  }),
  produces: "text/event-stream",
});

export const restartTestChat = defineRoute({
  id: "restartTestChat",
  method: "POST",
  path: "/api/v2/agent/testChat/restart",
  summary:
    "End a test conversation (its log row keeps the final duration). Start the next one with testChat and the same roomId.",
  tag: "Runtime",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({ ...agentRef, uuid: z.string().min(1).max(100) }),
  response: z.object({
    success: z.literal(true),
    roomId: z.string(),
    uuid: z.string(),
    status: z.literal("ended"),
  }),
});

export const transcriptEntrySchema = z.object({
  id: z.number().int(),
  role: z.enum(["user", "assistant", "operator", "system"]),
  text: z.string(),
  toolCalls: z.array(toolCallSchema),
  toolResults: z.array(toolResultSchema),
  status: z.enum(["complete", "failed"]),
  error: z.string().nullable(),
  model: z.string().nullable(),
  /** ms epoch */
  createdAt: z.number(),
  firstTokenMs: z.number().nullable(),
  durationMs: z.number().nullable(),
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;

export const conversationInfoSchema = z.object({
  roomId: z.string(),
  uuid: z.string(),
  agentId: z.number().int(),
  channel: z.enum(["web", "sms", "voice"]),
  stage: stageSchema,
  status: z.enum(["active", "ended"]),
  model: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  collected: z.record(z.string(), z.unknown()),
  outcome: z.record(z.string(), z.unknown()),
});
export type ConversationInfo = z.infer<typeof conversationInfoSchema>;

export const getConversationTranscript = defineRoute({
  id: "getConversationTranscript",
  method: "GET",
  path: "/api/v2/conversation/{roomId}/{uuid}",
  summary: "The transcript of one conversation: its messages in order, with tool calls and their results.",
  tag: "Runtime",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ roomId: z.string().min(1).max(100), uuid: z.string().min(1).max(100) }),
  response: z.object({
    success: z.literal(true),
    conversation: z.array(transcriptEntrySchema),
    info: conversationInfoSchema,
  }),
});

const fieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

export const generateAgentDraft = defineRoute({
  id: "generateAgentDraft",
  method: "POST",
  path: "/api/v2/agent/generate",
  summary:
    "Draft an agent's instructions and greeting (onboarding GENERATE_AGENT): from a template and the wizard's field values, or from scratch from a description. The sandbox model fills the template's text with the values.",
  tag: "Runtime",
  auth: "token",
  permission: "canViewOrg",
  body: z.object({
    method: z.enum(["BUILD_FROM_TEMPLATE", "BUILD_FROM_SCRATCH"]),
    templateId: id.optional(),
    /** The template's instructions (when no templateId is given). */
    templateInstructions: z.string().max(20_000).optional(),
    templateGreeting: z.string().max(2000).optional(),
    fields: z
      .array(z.looseObject({ key: z.string().min(1).max(100), value: fieldValueSchema.optional() }))
      .max(100)
      .default([]),
    agentName: z.string().trim().max(200).optional(),
    description: z.string().trim().max(5000).optional(),
  }),
  response: z.object({
    success: z.literal(true),
    agentInstructions: z.string(),
    greeting: z.string().nullable(),
    model: z.string(),
  }),
});

export const promptSuggestionSchema = z.object({
  id: z.string(),
  title: z.string(),
  detail: z.string(),
});
export type PromptSuggestion = z.infer<typeof promptSuggestionSchema>;

export const promptSuggestions = defineRoute({
  id: "promptSuggestions",
  method: "POST",
  path: "/api/v2/agent/suggestions",
  summary:
    "The model reviews an agent's instructions (the given text, else its staging campaign) and proposes improvements. The sandbox checks for a greeting, business hours and a transfer rule.",
  tag: "Runtime",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    ...agentRef,
    agentInstructions: z.string().max(20_000).optional(),
    greeting: z.string().max(2000).nullable().optional(),
  }),
  response: z.object({
    success: z.literal(true),
    suggestions: z.array(promptSuggestionSchema),
    model: z.string(),
  }),
});

export const LLM_PROVIDERS = ["sandbox", "openai", "openai-compatible", "anthropic"] as const;
export const llmProviderSchema = z.enum(LLM_PROVIDERS);
export type LlmProvider = z.infer<typeof llmProviderSchema>;

export const modelSettingsSchema = z.object({
  /** `organization` when the organisation set its own model, else the deployment's (environment). */
  source: z.enum(["organization", "deployment"]),
  provider: llmProviderSchema,
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  /** Only a masked form (`sk-…a1b2`); the key itself never leaves the server. */
  apiKey: z.string().nullable(),
  /** The name shown next to answers ("Sandbox model", "openai:gpt-4o-mini"). */
  label: z.string(),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

export const getModelSettings = defineRoute({
  id: "getModelSettings",
  method: "GET",
  path: "/api/v2/llm/settings",
  summary: "The language model the organisation's agents use (its own, else the deployment's); keys masked.",
  tag: "Runtime",
  auth: "token",
  permission: "canViewOrg",
  response: z.object({ success: z.literal(true), settings: modelSettingsSchema }),
});

export const saveModelSettings = defineRoute({
  id: "saveModelSettings",
  method: "POST",
  path: "/api/v2/llm/settings",
  summary:
    "Set the organisation's own language model, or `default` to use the deployment's again. apiKey absent keeps the stored key; the key is stored encrypted.",
  tag: "Runtime",
  auth: "token",
  permission: "canEditOrg",
  body: z.object({
    provider: z.enum(["default", ...LLM_PROVIDERS]),
    baseUrl: z.url({ message: "baseUrl: Enter a valid web address." }).max(500).nullable().optional(),
    model: z.string().trim().min(1).max(200).nullable().optional(),
    apiKey: z.string().trim().max(500).nullable().optional(),
  }),
  response: z.object({ success: z.literal(true), settings: modelSettingsSchema }),
});

export const bookingSchema = z.object({
  id: z.number().int(),
  agentId: z.number().int(),
  /** ms epoch */
  start: z.number(),
  end: z.number(),
  name: z.string(),
  phoneNumber: z.string().nullable(),
  email: z.string().nullable(),
  notes: z.string().nullable(),
  status: z.enum(["booked", "cancelled"]),
  source: z.enum(["agent", "manual"]),
  /** Also written to this connected calendar (null: only the account's own schedule). */
  calendar: z.enum(["google", "calendly"]).nullable(),
  roomId: z.string().nullable(),
  uuid: z.string().nullable(),
  createdAt: z.number(),
});
export type Booking = z.infer<typeof bookingSchema>;

/** What the schedule shows without an `end`: this many days from `start`. */
export const SCHEDULE_SPAN_DAYS = 366;
export const SCHEDULE_SPAN_MS = SCHEDULE_SPAN_DAYS * DAY_MS;

export const getSchedule = defineRoute({
  id: "getSchedule",
  method: "GET",
  path: "/api/v1/schedule",
  summary:
    "The account's schedule: bookings of the agent (the target, or agentId below it; every agent of an organisation otherwise) from start to end (ms epoch; default from now on).",
  tag: "Runtime",
  auth: "token",
  permission: "canViewOrg",
  query: z
    .object({ ...agentRef, start: timeMsSchema.optional(), end: timeMsSchema.optional() })
    .refine(
      (query) =>
        query.start === undefined ||
        query.end !== undefined ||
        windowEndsInRange(query.start, SCHEDULE_SPAN_MS),
      {
        path: ["start"],
        message: windowRangeMessage(`without an end, the ${SCHEDULE_SPAN_DAYS} days shown from start`),
      },
    ),
  response: z.object({ success: z.literal(true), bookings: z.array(bookingSchema) }),
});

export const runtimeRoutes = [
  runPrompt,
  testChat,
  restartTestChat,
  getConversationTranscript,
  generateAgentDraft,
  promptSuggestions,
  getModelSettings,
  saveModelSettings,
  getSchedule,
] as const;
