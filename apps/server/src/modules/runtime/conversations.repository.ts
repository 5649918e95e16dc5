import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  conversationLogs,
  conversationMessages,
  conversations,
  roomParticipants,
  rooms,
  runtimeUsage,
} from "../../db/schema/index.ts";

export type RoomRow = typeof rooms.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof conversationMessages.$inferSelect;
export type NewMessage = typeof conversationMessages.$inferInsert;
export type LogRowValues = Omit<typeof conversationLogs.$inferInsert, "id" | "updatedAt">;
export type UsageValues = Omit<typeof runtimeUsage.$inferInsert, "id" | "createdAt">;

/** Rooms, their participants, conversations, messages, log rows and metered usage. */
export function createConversationsRepository(db: Database) {
  return {
    async createRoom(
      values: typeof rooms.$inferInsert,
      participants: Omit<typeof roomParticipants.$inferInsert, "roomId" | "orgId">[],
    ): Promise<RoomRow> {
      return db.transaction(async (tx) => {
        const [room] = await tx.insert(rooms).values(values).returning();
        if (!room) throw new Error("room insert failed");
        if (participants.length > 0)
          await tx
            .insert(roomParticipants)
            .values(participants.map((p) => ({ ...p, roomId: room.id, orgId: room.orgId })));
        return room;
      });
    },

    async findRoom(id: string): Promise<RoomRow | null> {
      const [row] = await db.select().from(rooms).where(eq(rooms.id, id)).limit(1);
      return row ?? null;
    },

    async createConversation(values: typeof conversations.$inferInsert): Promise<ConversationRow> {
      const [row] = await db.insert(conversations).values(values).returning();
      if (!row) throw new Error("conversation insert failed");
      return row;
    },

    async findConversation(uuid: string): Promise<ConversationRow | null> {
      const [row] = await db.select().from(conversations).where(eq(conversations.uuid, uuid)).limit(1);
      return row ?? null;
    },

    async activeConversations(roomId: string): Promise<ConversationRow[]> {
      return db
        .select()
        .from(conversations)
        .where(and(eq(conversations.roomId, roomId), eq(conversations.status, "active")));
    },

    async updateConversation(
      uuid: string,
      patch: Partial<
        Pick<ConversationRow, "status" | "model" | "collected" | "outcome" | "lastActivityAt" | "endedAt">
      >,
    ): Promise<ConversationRow | null> {
      const [row] = await db.update(conversations).set(patch).where(eq(conversations.uuid, uuid)).returning();
      return row ?? null;
    },

    async insertMessage(values: NewMessage): Promise<MessageRow> {
      const [row] = await db.insert(conversationMessages).values(values).returning();
      if (!row) throw new Error("message insert failed");
      if (values.status !== "failed") {
        await db
          .update(rooms)
          .set({
            lastMessageText: row.text.slice(0, 500),
            lastMessageAt: row.createdAt,
            updatedAt: row.createdAt,
          })
          .where(eq(rooms.id, row.roomId));
      }
      return row;
    },

    /** The messages of one conversation, oldest first. */
    async conversationMessages(uuid: string, limit = 500): Promise<MessageRow[]> {
      const rows = await db
        .select()
        .from(conversationMessages)
        .where(eq(conversationMessages.conversationUuid, uuid))
        .orderBy(desc(conversationMessages.id))
        .limit(limit);
      return rows.reverse();
    },

    async firstMessages(uuid: string, limit: number): Promise<MessageRow[]> {
      return db
        .select()
        .from(conversationMessages)
        .where(eq(conversationMessages.conversationUuid, uuid))
        .orderBy(asc(conversationMessages.id))
        .limit(limit);
    },

    /** One log row per conversation: inserted at its first turn, brought up to date after every turn. */
    async upsertLog(values: LogRowValues): Promise<void> {
      const { uuid: _uuid, orgId: _orgId, ...changes } = values;
      await db
        .insert(conversationLogs)
        .values(values)
        .onConflictDoUpdate({ target: conversationLogs.uuid, set: { ...changes, updatedAt: sql`now()` } });
    },

    async findLog(uuid: string) {
      const [row] = await db.select().from(conversationLogs).where(eq(conversationLogs.uuid, uuid)).limit(1);
      return row ?? null;
    },

    async recordUsage(values: UsageValues): Promise<void> {
      await db.insert(runtimeUsage).values(values);
    },
  };
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
