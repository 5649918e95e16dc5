import { randomUUID } from "node:crypto";
import type { restartTestChat, TestChatEvent, testChat } from "@switchboard/api";
import { RUNTIME_MESSAGES } from "@switchboard/api";
import type { z } from "zod";
import type { Access } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { BodyOf } from "../../http/routes.ts";
import type { AgentsService } from "../agents/index.ts";
import type { ConversationRow, ConversationsRepository } from "../conversations/index.ts";
import type { AgentLookups } from "./agent-lookups.ts";
import {
  type AgentTurns,
  displayName,
  type StoredTurn,
  type TurnEvent,
  type TurnSubject,
} from "./agent-turn.ts";

type TestChatBody = z.output<NonNullable<(typeof testChat)["body"]>>;

type Deps = {
  agents: AgentsService;
  conversations: ConversationsRepository;
  turns: AgentTurns;
  lookups: AgentLookups;
  /** A test conversation ended (restarted, replaced, or ended by the agent): its analysis is queued. */
  ended?: (uuid: string) => Promise<void>;
};

/** The agent editor's test chat: conversations in a test room, streamed turn by turn, restarted at will. */
export function createTestChatService(deps: Deps) {
  const { conversations, agents, turns } = deps;
  const { campaignOf, organizationOf, findTestConversation, modelOrNull } = deps.lookups;

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
          await deps.ended?.(active.uuid);
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
        // The web channel's own addresses (usernames), never an e-mail or a phone number of another channel.
        fromAddress: `user-${access.caller.user.id}`,
        toAddress: agent.username,
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
          if (step.value?.conversationStatus === "ended") await deps.ended?.(conversation.uuid);
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

  async function restart(access: Access, body: BodyOf<typeof restartTestChat>) {
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
      await deps.ended?.(conversation.uuid);
    }
    return { success: true as const, roomId: room.id, uuid: conversation.uuid, status: "ended" as const };
  }

  return { testChat, restart };
}

export type TestChatService = ReturnType<typeof createTestChatService>;
