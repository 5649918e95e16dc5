import {
  type ConversationListItem,
  INBOX_MESSAGES,
  type InboxMessage,
  type RealtimeEvent,
} from "@switchboard/api";
import { formatPhoneNumber, isPersonName, normalizeAddress } from "@switchboard/core";
import type { Access, AccountRow } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { ListedRoom, MessageRow, ReactionRow, RoomRow, RoomScope } from "./inbox.repository.ts";
import type { InboxDeps } from "./inbox-deps.ts";

/**
 * What every part of the inbox shares: the caller's scope and rooms, list items and messages as the API
 * shows them, realtime events of rooms and messages, and the outside address an id names.
 */
export function createInboxViews(deps: InboxDeps) {
  const { repo, realtime } = deps;

  /** The organisation (and agent) whose inbox an account shows; partners and resellers have none. */
  function scopeOfAccount(account: AccountRow): RoomScope {
    if (account.accountType === "organization") return { orgId: account.id, agentId: null };
    if (account.accountType === "agent" && account.organizationId)
      return { orgId: account.organizationId, agentId: account.id };
    throw badRequest(INBOX_MESSAGES.noAccountId);
  }

  const scopeOf = (access: Access) => scopeOfAccount(access.target);

  /** A room the caller may see: live, in the target's organisation (and agent), or 404. */
  async function roomOf(access: Access, roomId: string): Promise<RoomRow> {
    const scope = scopeOf(access);
    const room = await repo.findRoom(roomId);
    if (
      room?.kind !== "live" ||
      room.orgId !== scope.orgId ||
      (scope.agentId !== null && room.agentAccountId !== scope.agentId)
    )
      throw notFound(INBOX_MESSAGES.roomNotFound);
    return room;
  }

  function partyName(listed: Pick<ListedRoom, "contactName" | "carrierName" | "room">): string {
    if (listed.contactName) return listed.contactName;
    if (isPersonName(listed.carrierName)) return listed.carrierName as string;
    const address = listed.room.externalAddress ?? listed.room.title ?? "Unknown";
    return formatPhoneNumber(address);
  }

  function roomSummary(listed: ListedRoom) {
    const { room } = listed;
    const details = listed.agentDetails as Record<string, unknown>;
    const agentName =
      typeof details.agentName === "string" && details.agentName ? details.agentName : listed.agentUsername;
    return {
      id: room.id,
      agentId: room.agentAccountId,
      agentName,
      agentNumber: listed.agentNumber,
      channel: room.channel,
      status: room.status,
      folder: room.folder,
      aiAgentEnabled: room.aiAgentEnabled,
      rating: room.rating,
      externalAddress: room.externalAddress,
      createdAt: room.createdAt.getTime(),
      lastMessageAt: room.lastMessageAt ? room.lastMessageAt.getTime() : null,
    };
  }

  function toListItem(listed: ListedRoom): ConversationListItem {
    const { room } = listed;
    return {
      id: room.id,
      roomId: room.id,
      room: roomSummary(listed),
      lastMessage:
        room.lastMessageText !== null
          ? {
              text: room.lastMessageText,
              createdAt: room.lastMessageAt ? room.lastMessageAt.getTime() : null,
            }
          : null,
      username: room.externalAddress ?? room.title ?? "",
      displayName: partyName(listed),
      contactId: listed.contactId,
      unread: listed.unread,
      unreadCount: listed.unreadCount,
    };
  }

  function toMessage(
    row: MessageRow & { channel?: RoomRow["channel"] | null },
    reactions: ReactionRow[],
    names: Map<number, string>,
    viewerId: number | null,
  ): InboxMessage {
    return {
      id: row.id,
      roomId: row.roomId,
      role: row.role,
      text: row.text,
      media: Array.isArray(row.media) ? row.media.filter((m): m is string => typeof m === "string") : [],
      senderUserId: row.senderUserId,
      senderName: row.senderUserId !== null ? (names.get(row.senderUserId) ?? null) : null,
      senderAddress: row.senderAddress,
      status: row.status,
      error: row.error,
      deliveryStatus: row.deliveryStatus,
      reactions: reactions
        .filter((r) => r.messageId === row.id)
        .map((r) => ({ reaction: r.reaction, userId: r.userId, mine: r.userId === viewerId })),
      createdAt: row.createdAt.getTime(),
      callUuid: row.channel === "voice" ? row.conversationUuid : null,
    };
  }

  async function messageEvent(row: MessageRow, room: Pick<RoomRow, "folder">): Promise<RealtimeEvent> {
    const names = await repo.userNames(row.senderUserId !== null ? [row.senderUserId] : []);
    const listed = await repo.listedRoom(row.roomId, 0);
    const inbound = row.role === "user";
    return {
      type: "message",
      roomId: row.roomId,
      folder: room.folder,
      message: toMessage(row, [], names, null),
      ...(listed
        ? { conversation: { ...toListItem(listed), unread: inbound, unreadCount: inbound ? 1 : 0 } }
        : {}),
    };
  }

  async function publishMessage(room: RoomRow, row: MessageRow) {
    await realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: await messageEvent(row, room),
    });
  }

  const publishRoom = (room: RoomRow) =>
    realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: { type: "room", roomId: room.id },
    });

  /** The outside address an id names: a room id, an external profile username or an address. */
  async function addressOf(access: Access, id: string): Promise<string> {
    const scope = scopeOf(access);
    if (/^[0-9a-f-]{36}$/i.test(id)) {
      const room = await roomOf(access, id);
      if (room.externalAddress) return room.externalAddress;
    }
    if (id.startsWith("ext-")) {
      const profile = await repo.externalProfileByUsername(scope.orgId, id);
      if (profile) return profile.address;
    }
    const normalized = normalizeAddress(id);
    if (!normalized) throw badRequest(INBOX_MESSAGES.badAddress);
    return normalized.address;
  }

  return {
    scopeOfAccount,
    scopeOf,
    roomOf,
    partyName,
    roomSummary,
    toListItem,
    toMessage,
    messageEvent,
    publishMessage,
    publishRoom,
    addressOf,
  };
}

export type InboxViews = ReturnType<typeof createInboxViews>;
