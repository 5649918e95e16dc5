// Over 400 lines on purpose: the inbox's one repository (rooms, participants, messages, reads, reactions,
// blocks, carrier records). Its list and unread queries share the scope conditions and the list
// statement; splitting it would spread them over files that all need them. Split by table group when a
// new concern (drafts, assignments) arrives.
import { and, desc, eq, gt, inArray, isNotNull, lte, ne, or, type SQL, sql } from "drizzle-orm";
import { type Database, executeRows } from "../../db/client.ts";
import {
  accounts,
  blockedAddresses,
  carrierMessages,
  contactAddresses,
  contacts,
  conversationMessages,
  conversations,
  externalProfiles,
  messageReactions,
  roomParticipants,
  roomReads,
  rooms,
  users,
} from "../../db/schema/index.ts";

export type RoomRow = typeof rooms.$inferSelect;
export type MessageRow = typeof conversationMessages.$inferSelect;
/** A message of a room with the channel of the conversation it belongs to. */
export type ThreadMessage = MessageRow & { channel: RoomRow["channel"] | null };
export type ReactionRow = typeof messageReactions.$inferSelect;

/** A room of the list with what the list shows: the caller's read state, contact, agent, unread count. */
export type ListedRoom = {
  room: RoomRow;
  agentDetails: Record<string, unknown>;
  agentUsername: string;
  agentNumber: string | null;
  contactId: number | null;
  contactName: string | null;
  carrierName: string | null;
  unread: boolean;
  unreadCount: number;
};

export type RoomScope = { orgId: number; agentId: number | null };

export type ListFilter = RoomScope & {
  userId: number;
  folder: "priority" | "agent";
  unread: boolean;
  archived: boolean;
  page: number;
  pageSize: number;
};

type RawListed = {
  id: string;
  last_read: number;
  marked_unread: boolean;
  unread_count: number;
  contact_id: number | null;
  contact_name: string | null;
  carrier_name: string | null;
  agent_details: Record<string, unknown>;
  agent_username: string;
  agent_number: string | null;
};

type RawRoom = {
  id: string;
  org_id: number;
  agent_account_id: number;
  channel: RoomRow["channel"];
  kind: RoomRow["kind"];
  status: RoomRow["status"];
  ai_agent_enabled: boolean;
  external_address: string | null;
  title: string | null;
  last_message_text: string | null;
  last_message_at: Date | string | null;
  folder: RoomRow["folder"];
  rating: number | null;
  last_inbound_message_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function toRoomRow(raw: RawRoom): RoomRow {
  return {
    id: raw.id,
    orgId: raw.org_id,
    agentAccountId: raw.agent_account_id,
    channel: raw.channel,
    kind: raw.kind,
    status: raw.status,
    aiAgentEnabled: raw.ai_agent_enabled,
    externalAddress: raw.external_address,
    title: raw.title,
    lastMessageText: raw.last_message_text,
    lastMessageAt: raw.last_message_at === null ? null : asDate(raw.last_message_at),
    folder: raw.folder,
    rating: raw.rating,
    lastInboundMessageId: raw.last_inbound_message_id,
    createdAt: asDate(raw.created_at),
    updatedAt: asDate(raw.updated_at),
  };
}

/** Rooms, read state, reactions, blocks, external profiles and the carrier's messages of the inbox. */
export function createInboxRepository(db: Database) {
  function scopeWhere(scope: RoomScope): SQL {
    return scope.agentId === null
      ? sql`r.org_id = ${scope.orgId}`
      : sql`r.org_id = ${scope.orgId} and r.agent_account_id = ${scope.agentId}`;
  }

  /**
   * The page of rooms and their total, in one statement (one round trip, planned on each call: see
   * executeRows). The total is summed from room_counts (a few rows per agent); with the unread filter, which
   * depends on the caller's read marks, it is counted along rooms_inbox_count_idx joined to
   * room_reads_org_user_read_idx (index-only scans); the page is read
   * along rooms_inbox_idx (org, folder, newest first), and contact, agent and the caller's unread count are
   * looked up for the page's rooms only. The page joins the total, so a page past the end still answers it.
   */
  async function listRooms(filter: ListFilter): Promise<{ rows: ListedRoom[]; total: number }> {
    const where = sql`${scopeWhere(filter)} and r.kind = 'live' and r.folder = ${filter.folder} and ${
      filter.archived ? sql`r.status = 'archived'` : sql`r.status <> 'archived'`
    }`;
    const countWhere = sql`rc.org_id = ${filter.orgId}${
      filter.agentId === null ? sql`` : sql` and rc.agent_account_id = ${filter.agentId}`
    } and rc.folder = ${filter.folder} and rc.archived = ${filter.archived}`;
    // room_reads.org_id is the room's organisation: naming it lets the join use the (org, user) index.
    const unreadJoin = sql`left join room_reads rr on rr.org_id = ${filter.orgId} and rr.user_id = ${filter.userId} and rr.room_id = r.id`;
    const unreadWhere = filter.unread
      ? sql` and (coalesce(rr.marked_unread, false) or coalesce(r.last_inbound_message_id, 0) > coalesce(rr.last_read_message_id, 0))`
      : sql``;
    const result = await executeRows<RawListed & RawRoom & { total: number }>(
      db,
      sql`
        select t.total, p.*, a.details as agent_details, a.username as agent_username,
          a.switchboard_phone_number as agent_number, c.id as contact_id, c.display_name as contact_name,
          (select rp.display_name from room_participants rp
            where rp.room_id = p.id and rp.kind = 'external' limit 1) as carrier_name,
          case when p.last_inbound > p.last_read then
            (select count(*)::int from conversation_messages m
              where m.org_id = p.org_id and m.room_id = p.id and m.id > p.last_read and m.role = 'user')
          else 0 end as unread_count
        from (${filter.unread ? sql`select count(*)::int as total from rooms r ${unreadJoin} where ${where}${unreadWhere}` : sql`select coalesce(sum(rc.n), 0)::int as total from room_counts rc where ${countWhere}`}) t
        left join lateral (
          select r.id, r.org_id, r.agent_account_id, r.channel, r.kind, r.status, r.ai_agent_enabled,
            r.external_address, r.title, r.last_message_text, r.last_message_at, r.folder, r.rating,
            r.last_inbound_message_id, r.created_at, r.updated_at,
            coalesce(r.last_inbound_message_id, 0) as last_inbound,
            coalesce(rr.last_read_message_id, 0) as last_read,
            coalesce(rr.marked_unread, false) as marked_unread
          from rooms r ${unreadJoin}
          where ${where}${unreadWhere}
          order by r.last_message_at desc nulls last, r.id
          limit ${filter.pageSize} offset ${filter.page * filter.pageSize}
        ) p on true
        left join accounts a on a.id = p.agent_account_id
        left join lateral (
          select ca.contact_id from contact_addresses ca
          where ca.org_id = p.org_id and ca.address = p.external_address order by ca.contact_id limit 1
        ) m on true
        left join contacts c on c.id = m.contact_id
        order by p.last_message_at desc nulls last, p.id`,
    );
    const total = Number(result[0]?.total ?? 0);
    // Past the end, the one row carries the total and no room.
    const page = result.filter((p) => p.id !== null);
    const rows: ListedRoom[] = page.map((p) => ({
      room: toRoomRow(p),
      agentDetails: p.agent_details ?? {},
      agentUsername: p.agent_username,
      agentNumber: p.agent_number,
      contactId: p.contact_id,
      contactName: p.contact_name,
      carrierName: p.carrier_name,
      unread: p.marked_unread || Number(p.unread_count) > 0,
      unreadCount: Number(p.unread_count),
    }));
    return { rows, total };
  }

  /** One room as the list shows it, for the caller. */
  async function listedRoom(roomId: string, userId: number): Promise<ListedRoom | null> {
    const room = await findRoom(roomId);
    if (!room) return null;
    const [row] = await executeRows<RawListed>(
      db,
      sql`
        select a.details as agent_details, a.username as agent_username, a.switchboard_phone_number as agent_number,
          coalesce(rr.last_read_message_id, 0) as last_read, coalesce(rr.marked_unread, false) as marked_unread,
          (select ca.contact_id from contact_addresses ca
            where ca.org_id = r.org_id and ca.address = r.external_address order by ca.contact_id limit 1) as contact_id,
          (select rp.display_name from room_participants rp
            where rp.room_id = r.id and rp.kind = 'external' limit 1) as carrier_name,
          (select count(*)::int from conversation_messages m
            where m.org_id = r.org_id and m.room_id = r.id and m.role = 'user'
              and m.id > coalesce(rr.last_read_message_id, 0)) as unread_count
        from rooms r
        join accounts a on a.id = r.agent_account_id
        left join room_reads rr on rr.room_id = r.id and rr.user_id = ${userId}
        where r.id = ${roomId}`,
    );
    if (!row) return null;
    let contactName: string | null = null;
    if (row.contact_id !== null) {
      const [contact] = await db
        .select({ name: contacts.displayName })
        .from(contacts)
        .where(eq(contacts.id, row.contact_id));
      contactName = contact?.name ?? null;
    }
    return {
      room,
      agentDetails: row.agent_details ?? {},
      agentUsername: row.agent_username,
      agentNumber: row.agent_number,
      contactId: row.contact_id,
      contactName,
      carrierName: row.carrier_name,
      unread: row.marked_unread || Number(row.unread_count) > 0,
      unreadCount: Number(row.unread_count),
    };
  }

  async function findRoom(roomId: string): Promise<RoomRow | null> {
    const [row] = await db.select().from(rooms).where(eq(rooms.id, roomId)).limit(1);
    return row ?? null;
  }

  return {
    listRooms,
    listedRoom,
    findRoom,

    /** The live text-message room between an agent and an outside address (the newest). */
    async findWebRoom(agentId: number, address: string): Promise<RoomRow | null> {
      const [row] = await db
        .select()
        .from(rooms)
        .where(
          and(
            eq(rooms.agentAccountId, agentId),
            eq(rooms.externalAddress, address),
            eq(rooms.channel, "web"),
            eq(rooms.kind, "live"),
          ),
        )
        .orderBy(desc(rooms.createdAt))
        .limit(1);
      return row ?? null;
    },

    async updateRoom(
      roomId: string,
      patch: Partial<
        Pick<RoomRow, "status" | "aiAgentEnabled" | "folder" | "rating" | "lastInboundMessageId">
      >,
    ): Promise<RoomRow | null> {
      const [row] = await db
        .update(rooms)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(rooms.id, roomId))
        .returning();
      return row ?? null;
    },

    /** Messages of a room, newest `limit`, oldest first. */
    /** The room's latest messages, oldest first, each with its conversation's channel (a call's, a text's). */
    async roomMessages(roomId: string, limit: number): Promise<ThreadMessage[]> {
      const rows = await db
        .select({ message: conversationMessages, channel: conversations.channel })
        .from(conversationMessages)
        .leftJoin(conversations, eq(conversations.uuid, conversationMessages.conversationUuid))
        .where(eq(conversationMessages.roomId, roomId))
        .orderBy(desc(conversationMessages.id))
        .limit(limit);
      return rows.reverse().map((row) => ({ ...row.message, channel: row.channel }));
    },

    async findMessage(id: number): Promise<MessageRow | null> {
      const [row] = await db
        .select()
        .from(conversationMessages)
        .where(eq(conversationMessages.id, id))
        .limit(1);
      return row ?? null;
    },

    /** Removes a message nobody was shown (an AI turn that failed and will be tried again). */
    async deleteMessage(id: number): Promise<void> {
      await db.delete(conversationMessages).where(eq(conversationMessages.id, id));
    },

    /** An organisation's messages after `since` (realtime catch-up), oldest first. */
    async messagesSince(scope: RoomScope, since: number, limit: number): Promise<MessageRow[]> {
      const base = and(
        eq(conversationMessages.orgId, scope.orgId),
        gt(conversationMessages.id, since),
        ne(conversationMessages.role, "system"),
      );
      const rows =
        scope.agentId === null
          ? await db
              .select({ m: conversationMessages })
              .from(conversationMessages)
              .innerJoin(rooms, eq(rooms.id, conversationMessages.roomId))
              .where(and(base, eq(rooms.kind, "live")))
              .orderBy(conversationMessages.id)
              .limit(limit)
          : await db
              .select({ m: conversationMessages })
              .from(conversationMessages)
              .innerJoin(rooms, eq(rooms.id, conversationMessages.roomId))
              .where(and(base, eq(rooms.kind, "live"), eq(rooms.agentAccountId, scope.agentId)))
              .orderBy(conversationMessages.id)
              .limit(limit);
      return rows.map((r) => r.m);
    },

    async lastMessageId(orgId: number): Promise<number> {
      const [row] = await db
        .select({ id: conversationMessages.id })
        .from(conversationMessages)
        .where(eq(conversationMessages.orgId, orgId))
        .orderBy(desc(conversationMessages.id))
        .limit(1);
      return row?.id ?? 0;
    },

    async setDelivery(
      messageId: number,
      patch: {
        deliveryStatus: MessageRow["deliveryStatus"];
        carrierMessageId?: string | null;
        error?: string | null;
      },
    ): Promise<MessageRow | null> {
      const [row] = await db
        .update(conversationMessages)
        .set(patch)
        .where(eq(conversationMessages.id, messageId))
        .returning();
      return row ?? null;
    },

    async deliveryByCarrierId(carrierMessageId: string, status: NonNullable<MessageRow["deliveryStatus"]>) {
      const [row] = await db
        .update(conversationMessages)
        .set({ deliveryStatus: status })
        .where(eq(conversationMessages.carrierMessageId, carrierMessageId))
        .returning();
      return row ?? null;
    },

    async participants(roomId: string) {
      return db.select().from(roomParticipants).where(eq(roomParticipants.roomId, roomId));
    },

    async userNames(ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: users.id, name: users.fullName, email: users.email })
        .from(users)
        .where(inArray(users.id, ids));
      return new Map(rows.map((r) => [r.id, r.name ?? r.email ?? `User ${r.id}`]));
    },

    // Read state ----------------------------------------------------------------------------------

    async markRead(orgId: number, userId: number, roomIds: string[]): Promise<number> {
      if (roomIds.length === 0) return 0;
      const targets = await db
        .select({ id: rooms.id, last: conversationMessages.id })
        .from(rooms)
        .leftJoin(
          conversationMessages,
          sql`${conversationMessages.id} = (select max(id) from conversation_messages where room_id = ${rooms.id})`,
        )
        .where(and(eq(rooms.orgId, orgId), inArray(rooms.id, roomIds)));
      for (const target of targets) {
        const last = target.last ?? 0;
        await db
          .insert(roomReads)
          .values({ roomId: target.id, userId, orgId, lastReadMessageId: last, markedUnread: false })
          .onConflictDoUpdate({
            target: [roomReads.roomId, roomReads.userId],
            set: { lastReadMessageId: last, markedUnread: false, updatedAt: new Date() },
          });
      }
      return targets.length;
    },

    async markUnread(orgId: number, userId: number, roomId: string): Promise<void> {
      await db
        .insert(roomReads)
        .values({ roomId, userId, orgId, markedUnread: true })
        .onConflictDoUpdate({
          target: [roomReads.roomId, roomReads.userId],
          set: { markedUnread: true, updatedAt: new Date() },
        });
    },

    /** The caller's unread rooms of one tab (activity), newest first. */
    async unreadRooms(scope: RoomScope, userId: number, folder: "priority" | "agent", limit: number) {
      const { rows, total } = await listRooms({
        ...scope,
        userId,
        folder,
        unread: true,
        archived: false,
        page: 0,
        pageSize: limit,
      });
      return { rows, total };
    },

    /** Room ids of the scope for clearing activity: all unread ones of a tab, or one party's. */
    async roomIdsOf(
      scope: RoomScope,
      folder: "priority" | "agent",
      address: string | null,
    ): Promise<string[]> {
      const conditions = [
        eq(rooms.orgId, scope.orgId),
        eq(rooms.kind, "live"),
        eq(rooms.folder, folder),
        ne(rooms.status, "archived"),
      ];
      if (scope.agentId !== null) conditions.push(eq(rooms.agentAccountId, scope.agentId));
      if (address !== null) conditions.push(eq(rooms.externalAddress, address));
      const rows = await db
        .select({ id: rooms.id })
        .from(rooms)
        .where(and(...conditions))
        .limit(10_000);
      return rows.map((r) => r.id);
    },

    // Reactions -----------------------------------------------------------------------------------

    async addReaction(values: typeof messageReactions.$inferInsert): Promise<void> {
      await db.insert(messageReactions).values(values).onConflictDoNothing();
    },

    async removeReaction(messageId: number, userId: number, reaction: string): Promise<void> {
      await db
        .delete(messageReactions)
        .where(
          and(
            eq(messageReactions.messageId, messageId),
            eq(messageReactions.userId, userId),
            eq(messageReactions.reaction, reaction),
          ),
        );
    },

    async reactionsOf(messageIds: number[]): Promise<ReactionRow[]> {
      if (messageIds.length === 0) return [];
      return db
        .select()
        .from(messageReactions)
        .where(inArray(messageReactions.messageId, messageIds))
        .orderBy(messageReactions.id);
    },

    // Blocks --------------------------------------------------------------------------------------

    async isBlocked(orgId: number, address: string): Promise<boolean> {
      const [row] = await db
        .select({ id: blockedAddresses.id })
        .from(blockedAddresses)
        .where(and(eq(blockedAddresses.orgId, orgId), eq(blockedAddresses.address, address)))
        .limit(1);
      return Boolean(row);
    },

    async setBlocked(orgId: number, address: string, blocked: boolean, userId: number): Promise<void> {
      if (blocked)
        await db
          .insert(blockedAddresses)
          .values({ orgId, address, blockedByUserId: userId })
          .onConflictDoNothing();
      else
        await db
          .delete(blockedAddresses)
          .where(and(eq(blockedAddresses.orgId, orgId), eq(blockedAddresses.address, address)));
    },

    /** Moves every room of an address to a tab (blocking sends them to Junk). */
    async moveRoomsOf(orgId: number, address: string, folder: "priority" | "agent"): Promise<string[]> {
      const rows = await db
        .update(rooms)
        .set({ folder, updatedAt: new Date() })
        .where(and(eq(rooms.orgId, orgId), eq(rooms.externalAddress, address), eq(rooms.kind, "live")))
        .returning({ id: rooms.id });
      return rows.map((r) => r.id);
    },

    // External profiles ---------------------------------------------------------------------------

    async externalProfile(orgId: number, address: string, kind: "phone" | "email") {
      const [existing] = await db
        .select()
        .from(externalProfiles)
        .where(and(eq(externalProfiles.orgId, orgId), eq(externalProfiles.address, address)))
        .limit(1);
      if (existing) return existing;
      const [created] = await db
        .insert(externalProfiles)
        .values({ orgId, address, kind, username: `ext-${crypto.randomUUID().slice(0, 13)}` })
        .onConflictDoNothing()
        .returning();
      if (created) return created;
      const [raced] = await db
        .select()
        .from(externalProfiles)
        .where(and(eq(externalProfiles.orgId, orgId), eq(externalProfiles.address, address)))
        .limit(1);
      if (!raced) throw new Error("external profile insert failed");
      return raced;
    },

    async externalProfileByUsername(orgId: number, username: string) {
      const [row] = await db
        .select()
        .from(externalProfiles)
        .where(and(eq(externalProfiles.orgId, orgId), eq(externalProfiles.username, username)))
        .limit(1);
      return row ?? null;
    },

    // Agents and numbers --------------------------------------------------------------------------

    async agentByNumber(number: string) {
      const [row] = await db
        .select()
        .from(accounts)
        .where(
          and(
            eq(accounts.switchboardPhoneNumber, number),
            eq(accounts.accountType, "agent"),
            sql`${accounts.deletedAt} is null`,
          ),
        )
        .limit(1);
      return row ?? null;
    },

    async agentsWithNumbers(orgId: number) {
      return db
        .select()
        .from(accounts)
        .where(
          and(
            eq(accounts.organizationId, orgId),
            eq(accounts.accountType, "agent"),
            isNotNull(accounts.switchboardPhoneNumber),
            sql`${accounts.deletedAt} is null`,
          ),
        )
        .orderBy(accounts.id);
    },

    /**
     * The room's latest text (or web chat) conversation: the session a new message joins or the AI agent
     * answers. A person's calls share the room (their thread) but are conversations of their own.
     */
    async textConversation(roomId: string) {
      const [row] = await db
        .select()
        .from(conversations)
        .where(and(eq(conversations.roomId, roomId), ne(conversations.channel, "voice")))
        .orderBy(desc(conversations.startedAt))
        .limit(1);
      return row ?? null;
    },

    // Carrier -------------------------------------------------------------------------------------

    /** Records a carrier message; null when its id was seen before (a replayed webhook). */
    async recordCarrierMessage(values: typeof carrierMessages.$inferInsert) {
      const [row] = await db.insert(carrierMessages).values(values).onConflictDoNothing().returning();
      return row ?? null;
    },

    async setCarrierOrg(id: number, orgId: number) {
      await db.update(carrierMessages).set({ orgId }).where(eq(carrierMessages.id, id));
    },

    /** A handset's messages with a set of numbers, oldest first (the last 200). */
    async handsetMessages(handset: string, numbers: string[]) {
      if (numbers.length === 0) return [];
      const rows = await db
        .select()
        .from(carrierMessages)
        .where(
          and(
            eq(carrierMessages.provider, "sandbox"),
            or(
              and(eq(carrierMessages.fromAddress, handset), inArray(carrierMessages.toAddress, numbers)),
              and(eq(carrierMessages.toAddress, handset), inArray(carrierMessages.fromAddress, numbers)),
            ),
          ),
        )
        .orderBy(desc(carrierMessages.id))
        .limit(200);
      return rows.reverse();
    },

    async contactsMatching(orgId: number, addresses: string[]) {
      if (addresses.length === 0) return [];
      return db
        .select({ address: contactAddresses.address, name: contacts.displayName, id: contacts.id })
        .from(contactAddresses)
        .innerJoin(contacts, eq(contacts.id, contactAddresses.contactId))
        .where(and(eq(contactAddresses.orgId, orgId), inArray(contactAddresses.address, addresses)));
    },

    async conversationsBefore(cutoff: Date, roomId: string) {
      return db
        .select()
        .from(conversations)
        .where(
          and(
            eq(conversations.roomId, roomId),
            eq(conversations.status, "active"),
            lte(conversations.lastActivityAt, cutoff),
          ),
        );
    },
  };
}

export type InboxRepository = ReturnType<typeof createInboxRepository>;
