import { randomUUID } from "node:crypto";
import { normalizeAddress } from "@switchboard/core";
import type { AccountRow } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import type { ConversationRow } from "../conversations/index.ts";
import { displayName } from "../runtime/index.ts";
import type { MessageRow, RoomRow } from "./inbox.repository.ts";
import type { InboxDeps } from "./inbox-deps.ts";
import type { InboxSending } from "./inbox-send.ts";
import type { InboxViews } from "./inbox-views.ts";
import { messageEventData } from "./inbox-webhooks.ts";

/** What happened to an inbound text (after it was stored): for features that watch conversations (tasks). */
export type InboundEvent = { room: RoomRow; message: MessageRow; conversationUuid: string | null };
/** The AI agent answered in a room. */
export type AgentReplyEvent = { room: RoomRow; message: MessageRow };

/**
 * Texts the agent starts itself (outbound tasks): a new conversation (direction outbound) in the room of
 * the agent and the number, its first message stored as queued in one transaction (`prepare`), then sent
 * through the SMS provider (`deliver`) — two steps, so a caller that keeps the message id never sends it
 * twice when it is retried. The room's AI agent answers replies as for any text.
 */
export function createInboxAgentText(deps: InboxDeps, views: InboxViews, sending: InboxSending) {
  const { repo } = deps;
  const inboundListeners: ((event: InboundEvent) => void | Promise<void>)[] = [];
  const replyListeners: ((event: AgentReplyEvent) => void | Promise<void>)[] = [];

  async function prepare(input: {
    agent: AccountRow;
    orgId: number;
    to: string;
    text: string;
    /** Kept on the conversation: spread into its log row's data on every turn. */
    collected: Record<string, unknown>;
    outcome?: Record<string, unknown>;
    accountName: string;
    /** Runs in the same transaction, after the message is stored (the caller keeps its id there). */
    within?: (
      tx: Database,
      created: { room: RoomRow; conversation: ConversationRow; message: MessageRow },
    ) => Promise<void>;
  }): Promise<{ room: RoomRow; conversation: ConversationRow; message: MessageRow }> {
    const { agent, orgId, to } = input;
    const stage = await sending.stageOf(agent, orgId);
    const agentNumber = agent.switchboardPhoneNumber ?? agent.username;
    const created = await deps.transaction(async (t) => {
      let { room } = await t.conversations.personRoom({
        orgId,
        agentAccountId: agent.id,
        address: to,
        channel: "sms",
        agentName: displayName(agent, "agentName"),
      });
      // A new conversation of its own: what the task produced, in the logs with its id.
      const current = await t.repo.textConversation(room.id);
      if (current && current.status === "active")
        await t.conversations.updateConversation(current.uuid, {
          status: "ended",
          endedAt: current.lastActivityAt,
        });
      const conversation = await t.conversations.createConversation({
        uuid: randomUUID(),
        orgId,
        roomId: room.id,
        agentAccountId: agent.id,
        channel: "sms",
        stage,
        direction: "outbound",
        fromAddress: agentNumber,
        toAddress: to,
        collected: input.collected,
        outcome: input.outcome ?? {},
      });
      const message = await t.conversations.insertMessage({
        orgId,
        roomId: room.id,
        conversationUuid: conversation.uuid,
        role: "assistant",
        senderAddress: agent.switchboardPhoneNumber,
        text: input.text,
        deliveryStatus: "queued",
      });
      await t.conversations.updateConversation(conversation.uuid, { lastActivityAt: message.createdAt });
      await t.conversations.upsertLog({
        orgId,
        accountId: orgId,
        accountName: input.accountName,
        agentId: agent.id,
        timestamp: conversation.startedAt,
        duration: 0,
        fromNumber: agentNumber,
        toNumber: to,
        cnam: null,
        roomId: room.id,
        direction: "outbound",
        transfer: "0",
        callId: null,
        uuid: conversation.uuid,
        channel: "sms",
        data: {
          ...input.collected,
          appointmentBooked: false,
          channel: "sms",
          stage,
          source: "live",
          model: null,
        },
      });
      if (room.status !== "open")
        room = (await t.repo.updateRoom(room.id, { status: "open" as const })) ?? room;
      await input.within?.(t.tx, { room, conversation, message });
      return { room, conversation, message };
    });
    return created;
  }

  /**
   * Sends a prepared message that is still queued (once: a message already sent or failed is answered as
   * it is), shows it in the open inboxes and reports message.sent.
   */
  async function deliver(messageId: number): Promise<MessageRow | null> {
    const message = await repo.findMessage(messageId);
    if (!message) return null;
    if (message.deliveryStatus !== "queued") return message;
    const room = await repo.findRoom(message.roomId);
    const agent = room ? await deps.access.loadAccount(room.agentAccountId) : null;
    if (!room || !agent) return message;
    // To the number the task wrote to, even when the person has since used another of theirs.
    const conversation = message.conversationUuid
      ? await deps.conversations.findConversation(message.conversationUuid)
      : null;
    const sent = await sending.deliver(
      room,
      agent,
      message,
      message.text,
      (conversation?.direction === "outbound" && normalizeAddress(conversation.toAddress ?? "")?.address) ||
        room.externalAddress,
    );
    if (sent.deliveryStatus !== "failed")
      await deps.webhooks?.emit(
        room.orgId,
        "message.sent",
        messageEventData(room, sent, agent.switchboardPhoneNumber),
      );
    await views.publishMessage(room, sent);
    return sent;
  }

  async function notifyInbound(event: InboundEvent) {
    for (const listener of inboundListeners) {
      try {
        await listener(event);
      } catch (error) {
        deps.log.warn({ err: error }, "inbound text listener failed");
      }
    }
  }

  async function notifyReply(event: AgentReplyEvent) {
    for (const listener of replyListeners) {
      try {
        await listener(event);
      } catch (error) {
        deps.log.warn({ err: error }, "agent reply listener failed");
      }
    }
  }

  return {
    agentText: { prepare, deliver },
    /** Called after each inbound text is stored (and before the AI agent answers it). */
    onInbound(listener: (event: InboundEvent) => void | Promise<void>) {
      inboundListeners.push(listener);
    },
    /** Called after each answer of the AI agent in a text conversation was sent. */
    onAgentReply(listener: (event: AgentReplyEvent) => void | Promise<void>) {
      replyListeners.push(listener);
    },
    notifyInbound,
    notifyReply,
  };
}

export type InboxAgentText = ReturnType<typeof createInboxAgentText>;
