import { type ActivityItem, INBOX_MESSAGES, type InboxFolder } from "@switchboard/api";
import type { Access } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { InboxDeps } from "./inbox-deps.ts";
import type { InboxViews } from "./inbox-views.ts";

/** Read state per user: marking unread, the activity (unread) list, clearing it. */
export function createInboxReadState(deps: InboxDeps, views: InboxViews) {
  const { repo, realtime } = deps;
  const { scopeOf, roomOf, partyName, addressOf } = views;

  async function markUnread(access: Access, roomId: string, folder: InboxFolder) {
    const room = await roomOf(access, roomId);
    if (room.folder !== folder) throw notFound(INBOX_MESSAGES.roomNotFound);
    await repo.markUnread(room.orgId, access.caller.user.id, room.id);
    await realtime.publish({
      orgId: room.orgId,
      agentId: room.agentAccountId,
      event: { type: "read", roomId: room.id, userId: access.caller.user.id },
    });
    return { success: true as const, roomId: room.id, unread: true as const };
  }

  async function activity(access: Access, folder: InboxFolder, simple: boolean) {
    const scope = scopeOf(access);
    const { rows, total } = await repo.unreadRooms(scope, access.caller.user.id, folder, simple ? 1 : 100);
    const items: ActivityItem[] = simple
      ? []
      : rows.map((listed) => ({
          roomId: listed.room.id,
          username: listed.room.externalAddress ?? "",
          displayName: partyName(listed),
          unreadCount: listed.unreadCount,
          lastMessage: listed.room.lastMessageText,
          lastMessageAt: listed.room.lastMessageAt ? listed.room.lastMessageAt.getTime() : null,
        }));
    return { success: true as const, activity: items, total };
  }

  async function clearActivity(
    access: Access,
    folder: InboxFolder,
    body: { username?: string | undefined; roomId?: string | undefined; clearAll: boolean },
  ) {
    const scope = scopeOf(access);
    let roomIds: string[];
    if (body.roomId) roomIds = [(await roomOf(access, body.roomId)).id];
    else if (body.username)
      roomIds = await repo.roomIdsOf(scope, folder, await addressOf(access, body.username));
    else if (body.clearAll) roomIds = await repo.roomIdsOf(scope, folder, null);
    else throw badRequest("Give roomId, username or clearAll.");
    const cleared = await repo.markRead(scope.orgId, access.caller.user.id, roomIds);
    await realtime.publish({
      orgId: scope.orgId,
      agentId: scope.agentId,
      event: {
        type: "read",
        roomId: roomIds.length === 1 ? (roomIds[0] ?? null) : null,
        userId: access.caller.user.id,
      },
    });
    return { success: true as const, cleared };
  }

  return { markUnread, activity, clearActivity };
}
