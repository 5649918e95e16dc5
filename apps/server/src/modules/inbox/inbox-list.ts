import { type ConversationDetail, INBOX_MESSAGES } from "@switchboard/api";
import { type Access, isWithin } from "../../access/access.ts";
import { notFound } from "../../api-error.ts";
import { JsonTextAnswer } from "../../http/routes.ts";
import type { RoomScope } from "./inbox.repository.ts";
import type { InboxDeps, ListQuery } from "./inbox-deps.ts";
import type { InboxViews } from "./inbox-views.ts";

const DETAIL_MESSAGES = 200;

/** Lists of conversations (cached pages per organisation) and one conversation's detail. */
export function createInboxLists(deps: InboxDeps, views: InboxViews) {
  const { repo } = deps;
  const { scopeOfAccount, scopeOf, roomOf, partyName, roomSummary, toListItem, toMessage } = views;

  /** The page as JSON text: the caller's own (unread state is per user), from the cache when unchanged. */
  async function listFor(access: Access, scope: RoomScope, query: ListQuery): Promise<JsonTextAnswer> {
    const userId = access.caller.user.id;
    const folder = query.isAgent ? "agent" : "priority";
    const key = `${scope.orgId}:${scope.agentId ?? "*"}:${userId}:${folder}:${query.unread}:${query.archived}:${query.page}:${query.pageSize}`;
    const text = await deps.listCache.get(scope.orgId, key, async () => {
      const { rows, total } = await repo.listRooms({
        ...scope,
        userId,
        folder,
        unread: query.unread,
        archived: query.archived,
        page: query.page,
        pageSize: query.pageSize,
      });
      return JSON.stringify({ success: true, rooms: rows.map(toListItem), totalRooms: total });
    });
    return new JsonTextAnswer(text);
  }

  const list = (access: Access, query: ListQuery) => listFor(access, scopeOf(access), query);

  /** The list of another account below the target (an organisation or one of its agents). */
  async function listOfAccount(access: Access, accountId: number, query: ListQuery, agentOnly = false) {
    const account = accountId === access.target.id ? access.target : await deps.access.loadAccount(accountId);
    if (!account || !isWithin(access.target, account) || (agentOnly && account.accountType !== "agent"))
      throw notFound(INBOX_MESSAGES.roomNotFound);
    await deps.access.requirePermission(access, account, "canViewOrg");
    return listFor(access, scopeOfAccount(account), query);
  }

  async function detail(access: Access, roomId: string): Promise<ConversationDetail> {
    const room = await roomOf(access, roomId);
    const listed = await repo.listedRoom(room.id, access.caller.user.id);
    if (!listed) throw notFound(INBOX_MESSAGES.roomNotFound);
    const rows = await repo.roomMessages(room.id, DETAIL_MESSAGES);
    const reactions = await repo.reactionsOf(rows.map((r) => r.id));
    const names = await repo.userNames([
      ...new Set([
        ...rows.map((r) => r.senderUserId).filter((id): id is number => id !== null),
        ...reactions.map((r) => r.userId),
      ]),
    ]);
    const participants = await repo.participants(room.id);
    const conversation = await repo.textConversation(room.id);
    const viewer = access.caller.user.id;
    return {
      success: true,
      roomId: room.id,
      uuid: conversation?.uuid ?? null,
      users: participants.map((p) => ({
        kind: p.kind,
        username:
          p.kind === "agent"
            ? listed.agentUsername
            : p.kind === "external"
              ? (p.address ?? "")
              : (p.address ?? `user-${p.userId}`),
        displayName: p.kind === "external" ? partyName(listed) : (p.displayName ?? p.address ?? ""),
      })),
      rating: room.rating,
      aiAgentEnabled: room.aiAgentEnabled,
      reactions: reactions.map((r) => ({
        messageId: r.messageId,
        reaction: r.reaction,
        userId: r.userId,
        mine: r.userId === viewer,
      })),
      room: roomSummary(listed),
      conversation: toListItem(listed),
      blocked: room.externalAddress ? await repo.isBlocked(room.orgId, room.externalAddress) : false,
      messages: rows.filter((r) => r.role !== "system").map((r) => toMessage(r, reactions, names, viewer)),
    };
  }

  return { list, listOfAccount, detail };
}
