import { randomUUID } from "node:crypto";
import type {
  Booking,
  CampaignFields,
  runPrompt,
  Stage,
  TestChatEvent,
  ToolCall,
  ToolResult,
  TranscriptEntry,
  testChat,
} from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import { ApiError, badRequest, notFound } from "../../http/api-error.ts";
import type { Outbound } from "../../http/outbound.ts";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import type { SmsProvider } from "../../providers/sms/sms-provider.ts";
import { AGENT_MESSAGES, type AgentsService } from "../agents/agents.service.ts";
import { type Access, type AccessResolver, type AccountRow, isWithin } from "../auth/access.ts";
import { buildAgentTools, enabledFunctions } from "./agent-tools.ts";
import {
  type AgentTurns,
  displayName,
  type StoredTurn,
  type TurnEvent,
  type TurnSubject,
} from "./agent-turn.ts";
import { runTurn } from "./conversation-engine.ts";
import type { ConversationRow, ConversationsRepository, MessageRow } from "./conversations.repository.ts";
import type { ModelSettingsService } from "./model-settings.service.ts";
import type { BookingRow, ScheduleRepository } from "./schedule.repository.ts";
import { agentTimeZone, buildSystemPrompt } from "./system-prompt.ts";
import type { TurnState } from "./tool-executors.ts";

export const RUNTIME_MESSAGES = {
  conversationNotFound: "Failed to fetch convo",
  conversationEnded: "This conversation has ended. Restart to begin a new one.",
  messageRequired: "message: Enter a message.",
  roomNotFound: "Room not found",
  chooseAgent: AGENT_MESSAGES.agentRequired,
} as const;

type TestChatBody = z.output<NonNullable<(typeof testChat)["body"]>>;
type RunPromptBody = z.output<NonNullable<(typeof runPrompt)["body"]>>;

type Deps = {
  agents: AgentsService;
  access: AccessResolver;
  conversations: ConversationsRepository;
  schedule: ScheduleRepository;
  models: ModelSettingsService;
  turns: AgentTurns;
  sms: SmsProvider;
  webhookSettings: (orgId: number) => Promise<{ url: string; secret: string } | null>;
  outbound: Pick<Outbound, "fetchText">;
  log: FastifyBaseLogger;
  maxSteps: number;
  toolTimeoutMs: number;
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

function toBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    agentId: row.agentAccountId,
    start: row.startAt.getTime(),
    end: row.endAt.getTime(),
    name: row.name,
    phoneNumber: row.phoneNumber,
    email: row.email,
    notes: row.notes,
    status: row.status,
    source: row.source,
    roomId: row.roomId,
    uuid: row.conversationUuid,
    createdAt: row.createdAt.getTime(),
  };
}

export function createRuntimeService(deps: Deps) {
  const { conversations, agents, turns } = deps;
  const now = deps.now ?? Date.now;

  async function campaignOf(agentRef: { id: number; orgId: number }, stage: Stage): Promise<CampaignFields> {
    const { staging, production } = await agents.campaignsOf(agentRef);
    if (stage === "production") {
      if (!production) throw badRequest(AGENT_MESSAGES.notPublished);
      return production;
    }
    return staging;
  }

  async function organizationOf(agent: AccountRow): Promise<AccountRow | null> {
    return agent.organizationId ? deps.access.loadAccount(agent.organizationId) : null;
  }

  /** A conversation of the agent's test chat, or 404. */
  async function findTestConversation(agentId: number, uuid: string): Promise<ConversationRow> {
    const conversation = await conversations.findConversation(uuid);
    if (!conversation || conversation.agentAccountId !== agentId)
      throw notFound(RUNTIME_MESSAGES.conversationNotFound);
    const room = await conversations.findRoom(conversation.roomId);
    if (room?.kind !== "test") throw notFound(RUNTIME_MESSAGES.conversationNotFound);
    return conversation;
  }

  async function modelOrNull(
    orgId: number | null,
  ): Promise<{ model: ResolvedModel | null; error: string | null }> {
    try {
      return { model: await deps.models.modelFor(orgId), error: null };
    } catch (error) {
      deps.log.error({ err: error, orgId }, "could not build the organisation's model");
      return { model: null, error: "The language model settings cannot be used. Check the model settings." };
    }
  }

  function turnEvents(result: StoredTurn): TestChatEvent {
    if (result.failure)
      return { event: "error", data: { message: result.failure.message, messageId: result.message.id } };
    return {
      event: "done",
      data: {
        messageId: result.message.id,
        text: result.text,
        model: result.model,
        finishReason: result.finishReason,
        usage: result.usage,
        conversationStatus: result.conversationStatus,
      },
    };
  }

  /**
   * Prepares a test chat turn (every check before the first byte of the stream) and answers the events: start,
   * the greeting of a new conversation, then the agent's answer to the message.
   */
  async function testChat(
    access: Access,
    body: TestChatBody,
    abortSignal?: AbortSignal,
  ): Promise<AsyncGenerator<TestChatEvent>> {
    const { account: agent, ref } = await agents.resolveAgent(access, body.agentId, "canEditOrg");
    let conversation: ConversationRow;
    let fresh = false;
    let stage = body.stage;
    if (body.uuid) {
      conversation = await findTestConversation(agent.id, body.uuid);
      if (conversation.status === "ended") throw badRequest(RUNTIME_MESSAGES.conversationEnded);
      if (!body.message) throw badRequest(RUNTIME_MESSAGES.messageRequired);
      stage = conversation.stage;
    } else {
      let room = body.roomId ? await conversations.findRoom(body.roomId) : null;
      if (body.roomId && (room?.agentAccountId !== agent.id || room.kind !== "test"))
        throw notFound(RUNTIME_MESSAGES.roomNotFound);
      await campaignOf(ref, stage);
      if (room) {
        for (const active of await conversations.activeConversations(room.id)) {
          const organization = await organizationOf(agent);
          await turns.end({
            agent,
            organization,
            campaign: await campaignOf(ref, active.stage),
            stage: active.stage,
            room,
            conversation: active,
          });
        }
      } else {
        room = await conversations.createRoom(
          {
            id: randomUUID(),
            orgId: ref.orgId,
            agentAccountId: agent.id,
            channel: "web",
            kind: "test",
            title: `Test chat with ${displayName(agent, "agentName")}`,
          },
          [
            { kind: "agent", accountId: agent.id, displayName: displayName(agent, "agentName") },
            {
              kind: "user",
              userId: access.caller.user.id,
              address: access.caller.user.email,
              displayName: access.caller.user.fullName,
            },
          ],
        );
      }
      conversation = await conversations.createConversation({
        uuid: randomUUID(),
        orgId: ref.orgId,
        roomId: room.id,
        agentAccountId: agent.id,
        channel: "web",
        stage,
        direction: "inbound",
        fromAddress: access.caller.user.email ?? `user-${access.caller.user.id}`,
        toAddress: agent.switchboardPhoneNumber ?? agent.username,
      });
      fresh = true;
    }
    const campaign = await campaignOf(ref, stage);
    const room = await conversations.findRoom(conversation.roomId);
    if (!room) throw notFound(RUNTIME_MESSAGES.roomNotFound);
    const subject: TurnSubject = {
      agent,
      organization: await organizationOf(agent),
      campaign,
      stage,
      room,
      conversation,
    };
    const userMessage = body.message
      ? await conversations.insertMessage({
          orgId: room.orgId,
          roomId: room.id,
          conversationUuid: conversation.uuid,
          role: "user",
          senderUserId: access.caller.user.id,
          senderAddress: conversation.fromAddress,
          text: body.message,
        })
      : null;
    const { model, error } = await modelOrNull(ref.orgId);

    async function* events(): AsyncGenerator<TestChatEvent> {
      yield {
        event: "start",
        data: {
          roomId: room?.id ?? conversation.roomId,
          uuid: conversation.uuid,
          agentId: agent.id,
          stage,
          model: model?.label ?? "unavailable",
          ...(userMessage ? { userMessageId: userMessage.id } : {}),
        },
      };
      if (!model) {
        yield { event: "error", data: { message: error ?? "The language model is unavailable." } };
        return;
      }
      const runs: AsyncGenerator<TurnEvent, StoredTurn | null>[] = [];
      if (fresh) runs.push(turns.greet(subject, model));
      if (userMessage) runs.push(turns.respond(subject, model, abortSignal ? { abortSignal } : {}));
      for (const run of runs) {
        let finished = false;
        try {
          let step = await run.next();
          while (!step.done) {
            const event = step.value;
            if (event.type === "text") yield { event: "text", data: { delta: event.delta } };
            else if (event.type === "tool-call") {
              const { type: _type, ...data } = event;
              yield { event: "tool-call", data };
            } else {
              const { type: _type, ...data } = event;
              yield { event: "tool-result", data };
            }
            step = await run.next();
          }
          finished = true;
          if (step.value) yield turnEvents(step.value);
        } finally {
          // The client went away mid-turn: the turn (aborted by the request's signal) still ends and is
          // stored, as a failed turn with no answer, and metered.
          if (!finished) while (!(await run.next()).done);
        }
      }
    }
    return events();
  }

  async function restart(access: Access, body: { agentId?: number | undefined; uuid: string }) {
    const { account: agent, ref } = await agents.resolveAgent(access, body.agentId, "canEditOrg");
    const conversation = await findTestConversation(agent.id, body.uuid);
    const room = await conversations.findRoom(conversation.roomId);
    if (!room) throw notFound(RUNTIME_MESSAGES.conversationNotFound);
    if (conversation.status !== "ended") {
      const campaign = await campaignOf(ref, "staging");
      await turns.end({
        agent,
        organization: await organizationOf(agent),
        campaign,
        stage: conversation.stage,
        room,
        conversation,
      });
    }
    return { success: true as const, roomId: room.id, uuid: conversation.uuid, status: "ended" as const };
  }

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
        schedule: deps.schedule,
        sms: deps.sms,
        webhookSettings: () => deps.webhookSettings(ref.orgId),
        toolTimeoutMs: deps.toolTimeoutMs,
        outbound: deps.outbound,
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

  async function schedule(
    access: Access,
    query: { agentId?: number | undefined; start?: number | undefined; end?: number | undefined },
  ) {
    const from = new Date(query.start ?? now());
    const to = new Date(query.end ?? from.getTime() + 366 * 86_400_000);
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

  return { testChat, restart, runPrompt: runPromptOnce, transcript, schedule };
}

export type RuntimeService = ReturnType<typeof createRuntimeService>;
