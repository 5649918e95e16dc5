import type { DatabaseHandle } from "../db/client.ts";
import { followNotices } from "../db/notice-cache.ts";
import type { NotificationListener } from "../db/notifications.ts";
import { ACCESS_CHANGED_CHANNEL, ACCESS_TABLES, type AccessResolver } from "./access.ts";

/**
 * A session's caller is kept until tokens, users, memberships or accounts change: anywhere (migration
 * 0010's notices), or in this process (at once, before its notice arrives). Returns the stop.
 */
export async function followAccessChanges(deps: {
  access: AccessResolver;
  database: DatabaseHandle;
  notifications: NotificationListener;
}): Promise<() => void> {
  const { access } = deps;
  const unfollow = await followNotices(
    access.callerCache,
    deps.notifications,
    ACCESS_CHANGED_CHANNEL,
    () => null,
  );
  const stopWatching = deps.database.onWrite((table) => {
    if (ACCESS_TABLES.has(table)) access.callerCache.changedAll();
  });
  return () => {
    unfollow();
    stopWatching();
  };
}
