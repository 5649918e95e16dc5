import type { CampaignFields, Stage, ToolCall, ToolResult } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { AccountRow } from "../../access/access.ts";
import type { Outbound } from "../../http/outbound.ts";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import type { AgentCalendar } from "../calendars/index.ts";
import type {
  ConversationRow,
  ConversationsRepository,
  MessageRow,
  RoomRow,
} from "../conversations/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import { buildAgentTools, enabledFunctions } from "./agent-tools.ts";
import { type EngineEvent, runTurn, type TurnUsage, toModelMessages } from "./conversation-engine.ts";
import { agentTimeZone, buildSystemPrompt, type Channel, openingLine } from "./system-prompt.ts";
import type { CallControls, KnowledgeSearch, ToolContext, TurnState } from "./tool-executors.ts";

/**
 * An agent turn with its storage: the engine's events pass through, and the finished turn is kept — the
 * agent's message (or the failure, with no answer), the conversation's collected data and outcome, its log
 * row and the metered usage. Every channel runs its turns through here (test chat now; SMS and calls later).
 */

export type TurnEvent = EngineEvent;

export type StoredTurn = {
  message: MessageRow;
  text: string;
  model: string;
  finishReason: string;
  usage: TurnUsage;
  failure: { message: string } | null;
  conversationStatus: "active" | "ended";
};

export type TurnSubject = {
  agent: AccountRow;
  organization: AccountRow | null;
  campaign: CampaignFields;
  stage: Stage;
  room: RoomRow;
  conversation: ConversationRow;
};

type Deps = {
  conversations: ConversationsRepository;
  calendar: AgentCalendar;
  sms: SmsProvider;
  webhookSettings: (orgId: number) => Promise<{ url: string; secret: string } | null>;
  outbound: Pick<Outbound, "fetchText">;
  /** The organisation's webhooks: events of the agents' tools (appointment.booked). */
  webhooks?: WebhookEvents;
  /** The knowledge-base search behind the knowledge tool of agents given knowledge bases. */
  knowledge?: KnowledgeSearch;
  log: FastifyBaseLogger;
  maxSteps: number;
  toolTimeoutMs: number;
  /** Most stored messages a turn sends back to the model. */
  historyLimit?: number;
  now?: () => number;
};

export const displayName = (account: AccountRow | null, ...keys: string[]): string => {
  const details = (account?.details ?? {}) as Record<string, unknown>;
  for (const key of [...keys, "displayName", "name", "accountName"]) {
    const value = details[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return account?.username ?? "the organisation";
};

export function createAgentTurns(deps: Deps) {
  const now = deps.now ?? Date.now;
  const { conversations } = deps;

  function logRow(subject: TurnSubject, conversation: ConversationRow) {
    const { agent, organization, room } = subject;
    const collected = conversation.collected;
    const transferred = conversation.outcome.transferred !== undefined;
    const seconds = Math.max(
      0,
      Math.round((conversation.lastActivityAt.getTime() - conversation.startedAt.getTime()) / 1000),
    );
    return {
      orgId: room.orgId,
      accountId: room.orgId,
      accountName: displayName(organization, "orgName"),
      agentId: agent.id,
      timestamp: conversation.startedAt,
      duration: seconds,
      fromNumber: conversation.fromAddress,
      toNumber: conversation.toAddress,
      cnam: null,
      roomId: room.id,
      direction: conversation.direction,
      transfer: transferred ? "1" : "0",
      callId: conversation.callId,
      uuid: conversation.uuid,
      channel: conversation.channel,
      data: {
        ...collected,
        appointmentBooked: collected.appointmentBooked === true,
        channel: conversation.channel,
        stage: conversation.stage,
        source: room.kind,
        model: conversation.model,
        ...(conversation.outcome.ended ? { endedByAgent: true } : {}),
      },
    };
  }

  async function keepConversation(
    subject: TurnSubject,
    patch: Parameters<ConversationsRepository["updateConversation"]>[1],
  ) {
    const updated =
      (await conversations.updateConversation(subject.conversation.uuid, patch)) ?? subject.conversation;
    subject.conversation = updated;
    await conversations.upsertLog(logRow(subject, updated));
    return updated;
  }

  /** Who the agent is and whom it talks with, as its system prompt and opening line read them. */
  function promptInput(subject: TurnSubject) {
    const { conversation } = subject;
    return {
      agentName: displayName(subject.agent, "agentName"),
      organizationName: displayName(subject.organization, "orgName"),
      campaign: subject.campaign,
      channel: conversation.channel as Channel,
      direction: conversation.direction === "outbound" ? ("outbound" as const) : ("inbound" as const),
    };
  }

  /**
   * The agent's opening line, word for word, as its first turn (no model call): its greeting, or on a call
   * it placed, its outbound opening; none when an inbound agent has no greeting.
   */
  async function* greet(
    subject: TurnSubject,
    model: ResolvedModel,
  ): AsyncGenerator<TurnEvent, StoredTurn | null> {
    const { room, conversation } = subject;
    const text = openingLine(promptInput(subject));
    if (!text) return null;
    yield { type: "text", delta: text };
    const message = await conversations.insertMessage({
      orgId: room.orgId,
      roomId: room.id,
      conversationUuid: conversation.uuid,
      role: "assistant",
      text,
      model: model.label,
      firstTokenMs: 0,
      durationMs: 0,
    });
    await keepConversation(subject, { model: model.label, lastActivityAt: message.createdAt });
    await conversations.recordUsage({
      orgId: room.orgId,
      agentAccountId: subject.agent.id,
      roomId: room.id,
      conversationUuid: conversation.uuid,
      channel: conversation.channel,
      provider: model.provider,
      model: model.modelId,
      steps: 0,
      messagesOut: 1,
    });
    return {
      message,
      text,
      model: model.label,
      finishReason: "greeting",
      usage: { inputTokens: 0, outputTokens: 0 },
      failure: null,
      conversationStatus: "active",
    };
  }

  /** The agent's answer to the conversation so far (its last stored message is the person's). */
  async function* respond(
    subject: TurnSubject,
    model: ResolvedModel,
    options: { abortSignal?: AbortSignal; messagesIn?: number; call?: CallControls } = {},
  ): AsyncGenerator<TurnEvent, StoredTurn> {
    const { agent, campaign, room, conversation } = subject;
    const channel = conversation.channel as Channel;
    const history = await conversations.conversationMessages(conversation.uuid, deps.historyLimit ?? 100);
    const state: TurnState = {
      collected: { ...conversation.collected },
      outcome: { ...conversation.outcome },
    };
    const context: ToolContext = {
      orgId: room.orgId,
      agentId: agent.id,
      campaign,
      timeZone: agentTimeZone(campaign.timezone),
      channel,
      roomId: room.id,
      conversationUuid: conversation.uuid,
      callerAddress: conversation.direction === "inbound" ? conversation.fromAddress : conversation.toAddress,
      preview: false,
      state,
      now,
      calendar: deps.calendar,
      sms: deps.sms,
      webhookSettings: () => deps.webhookSettings(room.orgId),
      toolTimeoutMs: deps.toolTimeoutMs,
      outbound: deps.outbound,
      ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
      ...(deps.knowledge && (campaign.knowledgeBaseIds ?? []).length > 0
        ? { knowledge: { knowledgeBaseIds: campaign.knowledgeBaseIds, search: deps.knowledge } }
        : {}),
      ...(options.call ? { call: options.call } : {}),
    };
    const turn = runTurn({
      model,
      system: buildSystemPrompt({ ...promptInput(subject), now: now() }),
      messages: toModelMessages(
        history.map((m) => ({
          ...m,
          toolCalls: m.toolCalls as ToolCall[],
          toolResults: m.toolResults as ToolResult[],
        })),
      ),
      tools: buildAgentTools(enabledFunctions(campaign.enabledFunctions), context),
      maxSteps: deps.maxSteps,
      log: deps.log,
      logContext: { roomId: room.id, uuid: conversation.uuid, agentId: agent.id },
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    let step = await turn.next();
    while (!step.done) {
      yield step.value;
      step = await turn.next();
    }
    const outcome = step.value;
    const message = await conversations.insertMessage({
      orgId: room.orgId,
      roomId: room.id,
      conversationUuid: conversation.uuid,
      role: "assistant",
      text: outcome.text,
      toolCalls: outcome.toolCalls,
      toolResults: outcome.toolResults,
      status: outcome.status,
      error: outcome.failure?.message ?? null,
      model: model.label,
      inputTokens: outcome.usage.inputTokens,
      outputTokens: outcome.usage.outputTokens,
      firstTokenMs: outcome.firstTokenMs,
      durationMs: outcome.durationMs,
    });
    const ended = state.outcome.ended !== undefined;
    await keepConversation(subject, {
      model: model.label,
      collected: state.collected,
      outcome: state.outcome,
      lastActivityAt: message.createdAt,
      ...(ended ? { status: "ended" as const, endedAt: message.createdAt } : {}),
    });
    await conversations.recordUsage({
      orgId: room.orgId,
      agentAccountId: agent.id,
      roomId: room.id,
      conversationUuid: conversation.uuid,
      channel,
      provider: model.provider,
      model: model.modelId,
      inputTokens: outcome.usage.inputTokens,
      outputTokens: outcome.usage.outputTokens,
      totalTokens: outcome.usage.inputTokens + outcome.usage.outputTokens,
      steps: outcome.steps,
      messagesIn: options.messagesIn ?? 1,
      messagesOut: outcome.status === "complete" ? 1 : 0,
    });
    return {
      message,
      text: outcome.text,
      model: model.label,
      finishReason: outcome.finishReason,
      usage: outcome.usage,
      failure: outcome.failure ? { message: outcome.failure.message } : null,
      conversationStatus: ended ? "ended" : "active",
    };
  }

  /** Ends a conversation: its log row keeps the final duration. */
  async function end(subject: TurnSubject): Promise<ConversationRow> {
    const at = new Date(now());
    return keepConversation(subject, { status: "ended", endedAt: at, lastActivityAt: at });
  }

  return { greet, respond, end, logRow };
}

export type AgentTurns = ReturnType<typeof createAgentTurns>;
