import { randomUUID } from "node:crypto";
import { INBOX_MESSAGES } from "@switchboard/api";
import { normalizeAddress } from "@switchboard/core";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, forbidden, notFound } from "../../api-error.ts";
import type { ConversationRow } from "../conversations/index.ts";
import type { MessageRow, RoomRow } from "./inbox.repository.ts";
import type { InboxDeps, InboxTransaction } from "./inbox-deps.ts";
import type { InboxViews } from "./inbox-views.ts";
import { messageEventData } from "./inbox-webhooks.ts";

/** An SMS exchange is one conversation (session) until it has been quiet this long. */
const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;

/** The outside party's address of a conversation: who wrote in, or who was written to. */
function partyOf(conversation: ConversationRow): string | null {
  return conversation.direction === "inbound" ? conversation.fromAddress : conversation.toAddress;
}

/**
 * Whether a conversation's party is the room's: a person's thread follows the number they last used, and an
 * exchange from another of their numbers is a session of its own (its log row names that number).
 */
function sameNumber(party: string | null, address: string | null): boolean {
  if (party === null || address === null) return true;
  const a = normalizeAddress(party);
  const b = normalizeAddress(address);
  if (a?.kind !== "phone" || b?.kind !== "phone") return true;
  return a.address === b.address;
}

/** Sending: an operator's message, stored with its session and delivered through the SMS provider. */
export function createInboxSending(deps: InboxDeps, views: InboxViews) {
  const { repo } = deps;
  const now = deps.now ?? Date.now;
  const { roomOf, toMessage, publishMessage, publishRoom } = views;

  async function organizationOf(orgId: number): Promise<AccountRow> {
    const org = await deps.access.loadAccount(orgId);
    if (!org) throw notFound(INBOX_MESSAGES.roomNotFound);
    return org;
  }

  /** The stage a new conversation of the agent runs: read before a transaction (see `Deps.transaction`). */
  async function stageOf(agent: AccountRow, orgId: number): Promise<"production" | "staging"> {
    return (await deps.agents.answeringCampaignOf({ id: agent.id, orgId })).stage;
  }

  /** The conversation (session) a new message of the room belongs to: the active one, or a new one. */
  async function sessionFor(
    t: InboxTransaction,
    room: RoomRow,
    agent: AccountRow,
    direction: "inbound" | "outbound",
    stage: "production" | "staging",
  ) {
    const current = await t.repo.textConversation(room.id);
    if (
      current &&
      current.status === "active" &&
      now() - current.lastActivityAt.getTime() < SESSION_IDLE_MS &&
      sameNumber(partyOf(current), room.externalAddress)
    )
      return current;
    if (current && current.status === "active")
      await t.conversations.updateConversation(current.uuid, {
        status: "ended",
        endedAt: current.lastActivityAt,
      });
    const agentNumber = agent.switchboardPhoneNumber ?? agent.username;
    return t.conversations.createConversation({
      uuid: randomUUID(),
      orgId: room.orgId,
      roomId: room.id,
      agentAccountId: agent.id,
      channel: room.channel,
      stage,
      direction,
      fromAddress: direction === "inbound" ? room.externalAddress : agentNumber,
      toAddress: direction === "inbound" ? agentNumber : room.externalAddress,
    });
  }

  /** Sends a stored outbound message through the SMS provider and keeps its delivery state. */
  /**
   * Hands a stored message to the carrier. `text` is what to send when it is not the stored text: the
   * message as written, when the organisation's redaction stored it redacted. `to` is the room's address (the
   * number the person last used) unless the message was written to one of their numbers in particular.
   */
  async function deliver(
    room: RoomRow,
    agent: AccountRow,
    message: MessageRow,
    text: string = message.text,
    to: string | null = room.externalAddress,
  ): Promise<MessageRow> {
    // Web-chat rooms have no carrier: the visitor reads the message from the page.
    if (room.channel === "web")
      return (await repo.setDelivery(message.id, { deliveryStatus: "delivered" })) ?? message;
    if (room.channel !== "sms" || !to || !agent.switchboardPhoneNumber) return message;
    try {
      const sent = await deps.sms.send({
        to,
        from: agent.switchboardPhoneNumber,
        body: text,
        ...(Array.isArray(message.media) && message.media.length > 0
          ? { media: message.media as string[] }
          : {}),
      });
      return (
        (await repo.setDelivery(message.id, {
          deliveryStatus: sent?.status ?? "sent",
          carrierMessageId: sent?.id ?? null,
        })) ?? message
      );
    } catch (error) {
      deps.log.warn({ err: error, roomId: room.id }, "text message could not be sent");
      return (
        (await repo.setDelivery(message.id, {
          deliveryStatus: "failed",
          error: error instanceof Error ? error.message : "The message could not be sent.",
        })) ?? message
      );
    }
  }

  async function send(access: Access, roomId: string, body: { text: string; media: string[] }) {
    const room = await roomOf(access, roomId);
    if (!body.text && body.media.length === 0) throw badRequest(INBOX_MESSAGES.emptyMessage);
    const org = await organizationOf(room.orgId);
    if (room.channel === "sms" && !org.smsEnabled) throw forbidden(INBOX_MESSAGES.smsDisabled);
    if (room.externalAddress && (await repo.isBlocked(room.orgId, room.externalAddress)))
      throw badRequest(INBOX_MESSAGES.blocked);
    const agent = await deps.access.loadAccount(room.agentAccountId);
    if (!agent) throw notFound(INBOX_MESSAGES.roomNotFound);
    if (room.channel === "sms" && !agent.switchboardPhoneNumber)
      throw badRequest(INBOX_MESSAGES.noAgentNumber);
    const stage = await stageOf(agent, room.orgId);
    // The message, its session, the room's state and the sender's read mark: all or nothing.
    let message = await deps.transaction(async (t) => {
      const conversation = await sessionFor(t, room, agent, "outbound", stage);
      const stored = await t.conversations.insertMessage({
        orgId: room.orgId,
        roomId: room.id,
        conversationUuid: conversation.uuid,
        role: "operator",
        senderUserId: access.caller.user.id,
        senderAddress: agent.switchboardPhoneNumber,
        text: body.text,
        media: body.media,
        deliveryStatus: "queued",
      });
      await t.conversations.updateConversation(conversation.uuid, { lastActivityAt: stored.createdAt });
      if (room.status !== "open") await t.repo.updateRoom(room.id, { status: "open" });
      // The sender has read everything up to their own message.
      await t.repo.markRead(room.orgId, access.caller.user.id, [room.id]);
      return stored;
    });
    message = await deliver(room, agent, message, body.text);
    if (message.deliveryStatus !== "failed")
      await deps.webhooks?.emit(
        room.orgId,
        "message.sent",
        messageEventData(room, message, agent.switchboardPhoneNumber),
      );
    await publishMessage(room, message);
    if (room.status !== "open") await publishRoom(room);
    const names = await repo.userNames([access.caller.user.id]);
    return { success: true as const, message: toMessage(message, [], names, access.caller.user.id) };
  }

  return { stageOf, sessionFor, deliver, send };
}

export type InboxSending = ReturnType<typeof createInboxSending>;
