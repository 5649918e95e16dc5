import { INBOX_MESSAGES, type InboxFolder } from "@switchboard/api";
import { normalizeAddress } from "@switchboard/core";
import type { Access } from "../../access/access.ts";
import { ApiError, badRequest, notFound } from "../../api-error.ts";
import { displayName } from "../runtime/index.ts";
import type { InboxRepository, RoomRow, RoomScope } from "./inbox.repository.ts";
import type { InboxDeps } from "./inbox-deps.ts";
import type { InboxViews } from "./inbox-views.ts";

/** Changes to rooms (AI switch, folder, close, rating), starting conversations, blocking and reactions. */
export function createInboxRooms(deps: InboxDeps, views: InboxViews) {
  const { repo, realtime } = deps;
  const { scopeOf, roomOf, roomSummary, publishRoom, addressOf } = views;

  async function changeRoom(
    room: RoomRow,
    patch: Parameters<InboxRepository["updateRoom"]>[1],
    userId: number,
  ) {
    const updated = (await repo.updateRoom(room.id, patch)) ?? room;
    await publishRoom(updated);
    const listed = await repo.listedRoom(updated.id, userId);
    if (!listed) throw notFound(INBOX_MESSAGES.roomNotFound);
    return { room: roomSummary(listed), updated };
  }

  async function setAiAgent(access: Access, roomId: string, enabled: boolean) {
    const room = await roomOf(access, roomId);
    const { updated } = await changeRoom(room, { aiAgentEnabled: enabled }, access.caller.user.id);
    return { success: true as const, roomId: room.id, aiAgentEnabled: updated.aiAgentEnabled };
  }

  async function getAiAgent(access: Access, roomId: string) {
    const room = await roomOf(access, roomId);
    return { success: true as const, roomId: room.id, aiAgentEnabled: room.aiAgentEnabled };
  }

  async function setFolder(access: Access, roomId: string, folder: InboxFolder) {
    const room = await roomOf(access, roomId);
    return { success: true as const, room: (await changeRoom(room, { folder }, access.caller.user.id)).room };
  }

  async function close(access: Access, roomId: string, archive: boolean) {
    const room = await roomOf(access, roomId);
    const status = archive || room.status === "closed" ? "archived" : "closed";
    const changed = await changeRoom(room, { status }, access.caller.user.id);
    if (room.status === "open")
      await deps.webhooks?.emit(room.orgId, "conversation.closed", {
        conversationId: room.id,
        agentId: room.agentAccountId,
        channel: room.channel,
        externalAddress: room.externalAddress,
        closedAt: Date.now(),
      });
    return { success: true as const, room: changed.room };
  }

  async function unarchive(access: Access, roomId: string) {
    const room = await roomOf(access, roomId);
    return {
      success: true as const,
      room: (await changeRoom(room, { status: "open" }, access.caller.user.id)).room,
    };
  }

  async function rate(access: Access, roomId: string, rating: number | null) {
    const room = await roomOf(access, roomId);
    return { success: true as const, room: (await changeRoom(room, { rating }, access.caller.user.id)).room };
  }

  async function createProfile(access: Access, address: string) {
    const scope = scopeOf(access);
    const normalized = normalizeAddress(address);
    if (!normalized) throw badRequest(INBOX_MESSAGES.badAddress);
    const profile = await repo.externalProfile(scope.orgId, normalized.address, normalized.kind);
    return {
      success: true as const,
      profile: { username: profile.username, address: profile.address, kind: profile.kind },
    };
  }

  async function defaultAgent(access: Access, scope: RoomScope, agentId: number | undefined) {
    if (agentId !== undefined || scope.agentId !== null) {
      const { account } = await deps.agents.resolveAgent(
        access,
        agentId ?? scope.agentId ?? undefined,
        "canEditOrg",
      );
      return account;
    }
    const [first] = await repo.agentsWithNumbers(scope.orgId);
    return first ?? null;
  }

  async function groupRoom(access: Access, body: { users: string[]; agentId?: number | undefined }) {
    const scope = scopeOf(access);
    const cannot = () => new ApiError(400, INBOX_MESSAGES.cannotStart);
    const user = body.users[0] ?? "";
    const profile = user.startsWith("ext-") ? await repo.externalProfileByUsername(scope.orgId, user) : null;
    const address = profile?.address ?? normalizeAddress(user)?.address ?? null;
    if (!address || address.includes("@")) throw cannot();
    const agent = await defaultAgent(access, scope, body.agentId).catch(() => null);
    if (!agent?.switchboardPhoneNumber || agent.organizationId !== scope.orgId) throw cannot();
    if (await repo.isBlocked(scope.orgId, address)) throw cannot();
    const { room, created } = await deps.conversations.personRoom({
      orgId: scope.orgId,
      agentAccountId: agent.id,
      address,
      channel: "sms",
      // A conversation a person starts is theirs: the AI agent stays off until they switch it on.
      aiAgentEnabled: false,
      agentName: displayName(agent, "agentName"),
      users: [
        {
          kind: "user",
          userId: access.caller.user.id,
          address: access.caller.user.email,
          displayName: access.caller.user.fullName,
        },
      ],
    });
    await publishRoom(room);
    return { success: true as const, roomId: room.id, created };
  }

  async function getBlock(access: Access, id: string, both: boolean) {
    const scope = scopeOf(access);
    const address = await addressOf(access, id);
    const blocked = await repo.isBlocked(scope.orgId, address);
    return { success: true as const, blocked, ...(both ? { blockedBy: false } : {}) };
  }

  async function setBlock(access: Access, target: string, blocked: boolean) {
    const scope = scopeOf(access);
    const address = await addressOf(access, target);
    await repo.setBlocked(scope.orgId, address, blocked, access.caller.user.id);
    const moved = await repo.moveRoomsOf(scope.orgId, address, blocked ? "agent" : "priority");
    for (const roomId of moved)
      await realtime.publish({ orgId: scope.orgId, agentId: null, event: { type: "room", roomId } });
    return { success: true as const, address, blocked };
  }

  async function react(
    access: Access,
    body: { roomId: string; messageId: number; reaction: string },
    add: boolean,
  ) {
    const room = await roomOf(access, body.roomId);
    const message = await repo.findMessage(body.messageId);
    if (!message || message.roomId !== room.id) throw notFound(INBOX_MESSAGES.messageNotFound);
    if (add)
      await repo.addReaction({
        orgId: room.orgId,
        roomId: room.id,
        messageId: message.id,
        userId: access.caller.user.id,
        reaction: body.reaction,
      });
    else await repo.removeReaction(message.id, access.caller.user.id, body.reaction);
    await realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: { type: "reaction", roomId: room.id, messageId: message.id },
    });
    const reactions = await repo.reactionsOf([message.id]);
    return {
      success: true as const,
      messageId: message.id,
      reactions: reactions.map((r) => ({
        reaction: r.reaction,
        userId: r.userId,
        mine: r.userId === access.caller.user.id,
      })),
    };
  }

  return {
    setAiAgent,
    getAiAgent,
    setFolder,
    close,
    unarchive,
    rate,
    createProfile,
    groupRoom,
    getBlock,
    setBlock,
    react,
  };
}
