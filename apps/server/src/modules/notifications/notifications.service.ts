import { type AppNotification, PUBLIC_MESSAGES } from "@switchboard/api";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { type NotificationKind, notifications } from "../../db/schema/index.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import { organizationOf } from "../runtime/index.ts";

type NotificationRow = typeof notifications.$inferSelect;

export type NewNotification = {
  kind: NotificationKind;
  title: string;
  body?: string;
  link?: string | null;
  agentId?: number | null;
  /** Notifications with the same key fold into one (count + 1) until it is cleared. */
  groupKey?: string | null;
};

const toApi = (row: NotificationRow): AppNotification => ({
  id: row.id,
  kind: row.kind,
  title: row.title,
  body: row.body,
  link: row.link,
  count: row.count,
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

/**
 * Notifications for the people of an organisation (orgId null: the super admins): stored, folded by group,
 * cleared one by one or all at once, and announced over the realtime WebSocket with the unread count.
 */
export function createNotificationsService(deps: { db: Database; realtime: RealtimeHub }) {
  const { db } = deps;
  const scope = (orgId: number | null) =>
    orgId === null ? isNull(notifications.orgId) : eq(notifications.orgId, orgId);

  async function unread(orgId: number | null): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(scope(orgId), isNull(notifications.clearedAt)));
    return row?.n ?? 0;
  }

  async function exists(orgId: number | null, id: number): Promise<boolean> {
    const [row] = await db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(scope(orgId), eq(notifications.id, id)))
      .limit(1);
    return row !== undefined;
  }

  async function announce(orgId: number | null) {
    if (orgId === null) return;
    await deps.realtime.publish({
      orgId,
      agentId: null,
      event: { type: "notification", unread: await unread(orgId) },
    });
  }

  /** The organisation the caller's notifications belong to: the target's, or none (super admin: platform). */
  function orgOf(access: Access): number | null | undefined {
    const orgId = organizationOf(access.target);
    if (orgId !== null) return orgId;
    return access.caller.user.superAdmin ? null : undefined;
  }

  return {
    async notify(orgId: number | null, input: NewNotification): Promise<void> {
      const now = new Date();
      let folded = false;
      if (input.groupKey) {
        const [row] = await db
          .update(notifications)
          .set({ count: sql`${notifications.count} + 1`, body: input.body ?? "", updatedAt: now })
          .where(
            and(scope(orgId), eq(notifications.groupKey, input.groupKey), isNull(notifications.clearedAt)),
          )
          .returning({ id: notifications.id });
        folded = row !== undefined;
      }
      if (!folded)
        await db.insert(notifications).values({
          orgId,
          kind: input.kind,
          title: input.title,
          body: input.body ?? "",
          link: input.link ?? null,
          agentId: input.agentId ?? null,
          groupKey: input.groupKey ?? null,
        });
      await announce(orgId);
    },

    /** Like notify, but only when no notification of this group was ever made (cleared ones count). */
    async notifyOnce(orgId: number | null, input: NewNotification & { groupKey: string }): Promise<boolean> {
      const [seen] = await db
        .select({ id: notifications.id })
        .from(notifications)
        .where(and(scope(orgId), eq(notifications.groupKey, input.groupKey)))
        .limit(1);
      if (seen) return false;
      await this.notify(orgId, input);
      return true;
    },

    async list(access: Access, limit: number) {
      const orgId = orgOf(access);
      if (orgId === undefined) return { success: true as const, notifications: [], unread: 0 };
      const rows = await db
        .select()
        .from(notifications)
        .where(and(scope(orgId), isNull(notifications.clearedAt)))
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(limit);
      return { success: true as const, notifications: rows.map(toApi), unread: await unread(orgId) };
    },

    async clear(access: Access, body: { clear?: number; clearAll?: boolean }) {
      const orgId = orgOf(access);
      if (orgId === undefined) throw notFound(PUBLIC_MESSAGES.notificationNotFound);
      const rows = await db
        .update(notifications)
        .set({ clearedAt: new Date() })
        .where(
          and(
            scope(orgId),
            isNull(notifications.clearedAt),
            ...(body.clearAll ? [] : [eq(notifications.id, body.clear ?? 0)]),
          ),
        )
        .returning({ id: notifications.id });
      // Clearing one already cleared (a second tab, a double click) is done, not an error.
      if (!body.clearAll && rows.length === 0 && !(await exists(orgId, body.clear ?? 0)))
        throw notFound(PUBLIC_MESSAGES.notificationNotFound);
      await announce(orgId);
      return { success: true as const, cleared: rows.length, unread: await unread(orgId) };
    },

    unread,
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
