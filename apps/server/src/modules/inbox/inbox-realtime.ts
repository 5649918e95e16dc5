import type { InboxFolder, RealtimeEvent } from "@switchboard/api";
import type { Access } from "../../access/access.ts";
import type { InboxDeps } from "./inbox-deps.ts";
import type { InboxViews } from "./inbox-views.ts";

const CATCH_UP_LIMIT = 1000;

/** The browsers' realtime connections to the inbox, and message events too large for a NOTIFY. */
export function createInboxRealtime(deps: InboxDeps, views: InboxViews) {
  const { repo, realtime } = deps;
  const { scopeOf, messageEvent } = views;

  /**
   * One browser's WebSocket: subscribed first, then `hello`, the messages after `since` it missed, and
   * `ready`; live events that arrive meanwhile wait and are sent after, without repeating a message.
   */
  async function connect(
    access: Access,
    since: number | undefined,
    send: (event: RealtimeEvent) => void,
    onClose: (cleanup: () => void) => void,
  ): Promise<void> {
    const scope = scopeOf(access);
    const sent = new Set<number>();
    const waiting: RealtimeEvent[] = [];
    let live = false;
    const forward = (event: RealtimeEvent) => {
      if (event.type === "message") {
        if (sent.has(event.message.id)) return;
        sent.add(event.message.id);
      }
      send(event);
    };
    const unsubscribe = realtime.subscribe(scope.orgId, (envelope) => {
      if (scope.agentId !== null && envelope.agentId !== null && envelope.agentId !== scope.agentId) return;
      if (live) forward(envelope.event);
      else waiting.push(envelope.event);
    });
    onClose(unsubscribe);
    const lastMessageId = await repo.lastMessageId(scope.orgId);
    send({ type: "hello", orgId: scope.orgId, lastMessageId });
    if (since !== undefined) {
      const missed = await repo.messagesSince(scope, since, CATCH_UP_LIMIT);
      const folders = new Map<string, InboxFolder>();
      for (const row of missed) {
        let folder = folders.get(row.roomId);
        if (!folder) {
          folder = (await repo.findRoom(row.roomId))?.folder ?? "priority";
          folders.set(row.roomId, folder);
        }
        forward(await messageEvent(row, { folder }));
      }
    }
    live = true;
    for (const event of waiting.splice(0)) forward(event);
    send({ type: "ready", lastMessageId: Math.max(lastMessageId, ...sent) });
  }

  async function loadMessageEvent(messageId: number): Promise<RealtimeEvent | null> {
    const row = await repo.findMessage(messageId);
    if (!row) return null;
    const room = await repo.findRoom(row.roomId);
    return room ? messageEvent(row, room) : null;
  }

  return { connect, loadMessageEvent };
}
