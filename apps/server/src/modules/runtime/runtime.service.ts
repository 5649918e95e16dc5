import {
  type getSchedule,
  RUNTIME_MESSAGES,
  type runPrompt,
  SCHEDULE_SPAN_MS,
  type ToolCall,
  type ToolResult,
  type TranscriptEntry,
} from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import { type Access, type AccessResolver, isWithin } from "../../access/access.ts";
import { ApiError, badRequest, notFound } from "../../api-error.ts";
import type { Outbound } from "../../http/outbound.ts";
import type { QueryOf } from "../../http/routes.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import type { AgentsService } from "../agents/index.ts";
import { type AgentCalendar, type ScheduleRepository, toBooking } from "../calendars/index.ts";
import type { ConversationsRepository, MessageRow } from "../conversations/index.ts";
import type { AgentLookups } from "./agent-lookups.ts";
import { buildAgentTools, enabledFunctions } from "./agent-tools.ts";
import { displayName } from "./agent-turn.ts";
import { runTurn } from "./conversation-engine.ts";
import { agentTimeZone, buildSystemPrompt } from "./system-prompt.ts";
import type { KnowledgeSearch, TurnState } from "./tool-executors.ts";

type RunPromptBody = z.output<NonNullable<(typeof runPrompt)["body"]>>;

type Deps = {
  lookups: AgentLookups;
  agents: AgentsService;
  access: AccessResolver;
  conversations: ConversationsRepository;
  schedule: ScheduleRepository;
  calendar: AgentCalendar;
  sms: SmsProvider;
  webhookSettings: (orgId: number) => Promise<{ url: string; secret: string } | null>;
  outbound: Pick<Outbound, "fetchText">;
  log: FastifyBaseLogger;
  maxSteps: number;
  toolTimeoutMs: number;
  knowledge?: KnowledgeSearch;
  now?: () => number;
};

const ms = (date: Date | null) => (date ? date.getTime() : null);

export function toTranscriptEntry(row: MessageRow): TranscriptEntry {
  return {
    id: row.id,
    role: row.role,
    text: row.text,
    toolCalls: row.toolCalls as ToolCall[],
    toolResults: row.toolResults as ToolResult[],
    status: row.status,
    error: row.error,
    model: row.model,
    createdAt: row.createdAt.getTime(),
    firstTokenMs: row.firstTokenMs,
    durationMs: row.durationMs,
  };
}

export function createRuntimeService(deps: Deps) {
  const { conversations, agents } = deps;
  const now = deps.now ?? Date.now;

  const { campaignOf, organizationOf, modelOrNull } = deps.lookups;

  /** One prompt, one answer: nothing stored, tools preview what they would do; usage is metered. */
  async function runPromptOnce(access: Access, body: RunPromptBody) {
    const { account: agent, ref } = await agents.resolveAgent(access, body.targetAgent, "canEditOrg");
    const campaign = await campaignOf(ref, body.stage);
    const { model, error } = await modelOrNull(ref.orgId);
    if (!model) throw new ApiError(502, error ?? "The language model is unavailable.");
    const state: TurnState = { collected: {}, outcome: {} };
    const turn = runTurn({
      model,
      system: buildSystemPrompt({
        agentName: displayName(agent, "agentName"),
        organizationName: displayName(await organizationOf(agent), "orgName"),
        campaign,
        channel: "web",
        now: now(),
      }),
      messages: [{ role: "user", content: body.promptText }],
      tools: buildAgentTools(enabledFunctions(campaign.enabledFunctions), {
        orgId: ref.orgId,
        agentId: agent.id,
        campaign,
        timeZone: agentTimeZone(campaign.timezone),
        channel: "web",
        roomId: null,
        conversationUuid: null,
        callerAddress: null,
        preview: true,
        state,
        now,
        calendar: deps.calendar,
        sms: deps.sms,
        webhookSettings: () => deps.webhookSettings(ref.orgId),
        toolTimeoutMs: deps.toolTimeoutMs,
        outbound: deps.outbound,
        ...(deps.knowledge && campaign.knowledgeBaseIds.length > 0
          ? { knowledge: { knowledgeBaseIds: campaign.knowledgeBaseIds, search: deps.knowledge } }
          : {}),
      }),
      maxSteps: deps.maxSteps,
      log: deps.log,
      logContext: { agentId: agent.id, call: "runPrompt" },
    });
    let step = await turn.next();
    while (!step.done) step = await turn.next();
    const outcome = step.value;
    await conversations.recordUsage({
      orgId: ref.orgId,
      agentAccountId: agent.id,
      channel: "web",
      provider: model.provider,
      model: model.modelId,
      inputTokens: outcome.usage.inputTokens,
      outputTokens: outcome.usage.outputTokens,
      totalTokens: outcome.usage.inputTokens + outcome.usage.outputTokens,
      steps: outcome.steps,
      messagesIn: 1,
      messagesOut: outcome.status === "complete" ? 1 : 0,
    });
    if (outcome.failure) throw new ApiError(502, outcome.failure.message);
    return {
      success: true as const,
      answer: outcome.text,
      model: model.label,
      toolCalls: outcome.toolCalls,
      toolResults: outcome.toolResults,
      usage: outcome.usage,
    };
  }

  async function transcript(access: Access, roomId: string, uuid: string) {
    const conversation = await conversations.findConversation(uuid);
    if (!conversation || conversation.roomId !== roomId)
      throw notFound(RUNTIME_MESSAGES.conversationNotFound);
    const agent = await deps.access.loadAccount(conversation.agentAccountId);
    if (!agent || !isWithin(access.target, agent)) throw notFound(RUNTIME_MESSAGES.conversationNotFound);
    await deps.access.requirePermission(access, agent, "canViewOrg");
    const rows = await conversations.firstMessages(uuid, 2000);
    return {
      success: true as const,
      conversation: rows.map(toTranscriptEntry),
      info: {
        roomId: conversation.roomId,
        uuid: conversation.uuid,
        agentId: conversation.agentAccountId,
        channel: conversation.channel,
        stage: conversation.stage,
        status: conversation.status,
        model: conversation.model,
        startedAt: conversation.startedAt.getTime(),
        endedAt: ms(conversation.endedAt),
        collected: conversation.collected,
        outcome: conversation.outcome,
      },
    };
  }

  async function schedule(access: Access, query: QueryOf<typeof getSchedule>) {
    const from = new Date(query.start ?? now());
    const to = new Date(query.end ?? from.getTime() + SCHEDULE_SPAN_MS);
    if (to <= from) throw badRequest("end: must be after start");
    let orgId: number;
    let agentIds: number[] | null;
    if (query.agentId !== undefined || access.target.accountType === "agent") {
      const { ref } = await agents.resolveAgent(access, query.agentId, "canViewOrg");
      orgId = ref.orgId;
      agentIds = [ref.id];
    } else if (access.target.accountType === "organization") {
      orgId = access.target.id;
      agentIds = null;
    } else {
      throw badRequest(RUNTIME_MESSAGES.chooseAgent);
    }
    const rows = await deps.schedule.list(orgId, agentIds, from, to);
    return { success: true as const, bookings: rows.map(toBooking) };
  }

  return { runPrompt: runPromptOnce, transcript, schedule };
}

export type RuntimeService = ReturnType<typeof createRuntimeService>;
