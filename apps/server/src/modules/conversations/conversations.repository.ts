import { randomUUID } from "node:crypto";
import {
  formatPhoneNumber,
  normalizeAddress,
  type RedactionSettings,
  redactDeep,
  redactionEnabled,
  redactionSettingsOf,
} from "@switchboard/core";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  accounts,
  contactAddresses,
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
/** A log row as written: its channel always named (the column's default is for rows written before it). */
export type LogRowValues = Omit<typeof conversationLogs.$inferInsert, "id" | "updatedAt" | "channel"> & {
  channel: NonNullable<(typeof conversationLogs.$inferInsert)["channel"]>;
};
/** A room's participants as `createRoom` takes them. */
export type NewParticipant = Omit<typeof roomParticipants.$inferInsert, "roomId" | "orgId">;
/** Who reached (or is reaching) a person by phone, and how: what `personRoom` needs to find or make their thread. */
export type PersonContact = {
  orgId: number;
  agentAccountId: number;
  /** The person's address as it came (a carrier's, a task's): compared in E.164 when it is a phone number. */
  address: string;
  /** How this contact reaches them; each conversation keeps its own channel whatever the room's. */
  channel: "sms" | "voice";
  /** For a new room only. */
  folder?: RoomRow["folder"];
  aiAgentEnabled?: boolean;
  /** For a new room that is nobody's thread (an address that is no phone number): what it is called. */
  title?: string;
  /** For a new room only: the person's name as the carrier gave it. */
  personName?: string | null;
  /** For a new room only: the agent's name as the room shows it. */
  agentName: string;
  /** For a new room only: people of the organisation in it from the start (the user starting it). */
  users?: NewParticipant[];
};
export type UsageValues = Omit<typeof runtimeUsage.$inferInsert, "id" | "createdAt">;

/** Log data keys that are the system's own, never what someone said: not redacted. */
const SYSTEM_LOG_KEYS = new Set([
  "recordingUrl",
  "model",
  "channel",
  "stage",
  "source",
  "transport",
  "warning",
]);

async function createRoomIn(
  tx: Database,
  values: typeof rooms.$inferInsert,
  participants: NewParticipant[],
): Promise<RoomRow> {
  const [room] = await tx.insert(rooms).values(values).returning();
  if (!room) throw new Error("room insert failed");
  if (participants.length > 0)
    await tx
      .insert(roomParticipants)
      .values(participants.map((p) => ({ ...p, roomId: room.id, orgId: room.orgId })));
  return room;
}

/**
 * Rooms, their participants, conversations, messages, log rows and metered usage. What people said is
 * stored redacted when the organisation has redaction on (`settings.redaction`, core redactText): message
 * text, tool calls and results, collected data and log data are redacted here, before the INSERT or UPDATE,
 * so the raw text is never stored.
 */
export function createConversationsRepository(db: Database) {
  /** The organisation's redaction settings, or null when all are off (read at each write: no stale cache). */
  async function redactionOf(orgId: number): Promise<RedactionSettings | null> {
    const [row] = await db
      .select({ redaction: sql<unknown>`${accounts.settings} -> 'redaction'` })
      .from(accounts)
      .where(eq(accounts.id, orgId))
      .limit(1);
    const settings = redactionSettingsOf(row?.redaction);
    return redactionEnabled(settings) ? settings : null;
  }

  function redactMessage(values: NewMessage, settings: RedactionSettings | null): NewMessage {
    if (!settings) return values;
    return {
      ...values,
      text: redactDeep(values.text, settings),
      ...(values.toolCalls !== undefined ? { toolCalls: redactDeep(values.toolCalls, settings) } : {}),
      ...(values.toolResults !== undefined ? { toolResults: redactDeep(values.toolResults, settings) } : {}),
    };
  }

  function redactLogData(data: Record<string, unknown>, settings: RedactionSettings | null) {
    if (!settings) return data;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data))
      out[key] = SYSTEM_LOG_KEYS.has(key) ? value : redactDeep(value, settings);
    return out;
  }

  return {
    redactionOf,
    async createRoom(values: typeof rooms.$inferInsert, participants: NewParticipant[]): Promise<RoomRow> {
      return db.transaction((tx) => createRoomIn(tx, values, participants));
    },

    /**
     * A person's one inbox thread with an agent: the live text-or-call room of that agent and the person,
     * found or made under a lock, so two at once make one. The person is their number (E.164) and, when the
     * number is one of a contact's of the organisation, every number of that contact: a room under any of them
     * is theirs. Texts and calls, outbound (tasks) or inbound, whichever came first, from whichever of their
     * numbers, land in it; each keeps its own conversation and channel (Calls and metrics read those), and the
     * room's address follows the number last used, so replies go there. A room a text reaches is a texting room
     * (channel sms): its replies are texted. A call from an address that is no phone number (a browser) is
     * nobody's thread: a room of its own. `created` says whether the room is new; a room found closed or
     * archived opens again. Rooms a contact's numbers had apart before the contact joined them stay apart; a
     * number's own room is chosen first among them.
     */
    async personRoom(person: PersonContact): Promise<{ room: RoomRow; created: boolean }> {
      const normalized = normalizeAddress(person.address);
      const phone = normalized?.kind === "phone";
      const address = phone ? (normalized?.address as string) : person.address.trim();
      const title = phone ? formatPhoneNumber(address) : (person.title ?? address);
      const create = (tx: Database) =>
        createRoomIn(
          tx,
          {
            id: randomUUID(),
            orgId: person.orgId,
            agentAccountId: person.agentAccountId,
            channel: person.channel,
            kind: "live",
            externalAddress: address,
            title,
            ...(person.folder ? { folder: person.folder } : {}),
            ...(person.aiAgentEnabled !== undefined ? { aiAgentEnabled: person.aiAgentEnabled } : {}),
          },
          [
            { kind: "agent", accountId: person.agentAccountId, displayName: person.agentName },
            { kind: "external", address, ...(person.personName ? { displayName: person.personName } : {}) },
            ...(person.users ?? []),
          ],
        );
      if (!phone && person.channel === "voice")
        return { room: await db.transaction((tx) => create(tx)), created: true };
      return db.transaction(async (tx) => {
        const lock = (key: string) =>
          tx.execute(
            sql`select pg_advisory_xact_lock(hashtext(${`person-room:${person.agentAccountId}:${key}`}))`,
          );
        await lock(address);
        // The person's other numbers: those of every contact of the organisation this number is one of. Each
        // contact's lock after the number's (always in that order, so two numbers of one contact at once
        // wait for each other and never deadlock).
        const numbers = new Set([address]);
        if (phone) {
          const contactIds = (
            await tx
              .select({ id: contactAddresses.contactId })
              .from(contactAddresses)
              .where(and(eq(contactAddresses.orgId, person.orgId), eq(contactAddresses.address, address)))
              .orderBy(asc(contactAddresses.contactId))
              .limit(20)
          ).map((row) => row.id);
          for (const id of contactIds) await lock(`contact:${id}`);
          if (contactIds.length > 0) {
            const theirs = await tx
              .select({ address: contactAddresses.address })
              .from(contactAddresses)
              .where(
                and(
                  eq(contactAddresses.orgId, person.orgId),
                  inArray(contactAddresses.contactId, contactIds),
                ),
              );
            for (const row of theirs)
              if (normalizeAddress(row.address)?.kind === "phone") numbers.add(row.address);
          }
        }
        const [found] = await tx
          .select()
          .from(rooms)
          .where(
            and(
              eq(rooms.agentAccountId, person.agentAccountId),
              numbers.size === 1
                ? eq(rooms.externalAddress, address)
                : inArray(rooms.externalAddress, [...numbers]),
              eq(rooms.kind, "live"),
              inArray(rooms.channel, ["sms", "voice"]),
            ),
          )
          // The texting room first (older data may hold a call's room beside it), then this number's own, then
          // the newest.
          .orderBy(
            sql`${rooms.channel} = 'sms' desc`,
            sql`${rooms.externalAddress} = ${address} desc`,
            desc(rooms.createdAt),
          )
          .limit(1);
        if (!found) return { room: await create(tx), created: true };
        const patch: Partial<Pick<RoomRow, "channel" | "status" | "externalAddress" | "title">> = {};
        if (person.channel === "sms" && found.channel !== "sms") patch.channel = "sms";
        if (found.status !== "open") patch.status = "open";
        if (found.externalAddress !== address) {
          // Another of the person's numbers: the room now answers the one they last used.
          patch.externalAddress = address;
          if (found.externalAddress === null || found.title === formatPhoneNumber(found.externalAddress))
            patch.title = title;
          // The person in the room is reached at that number now.
          if (found.externalAddress !== null)
            await tx
              .update(roomParticipants)
              .set({ address })
              .where(
                and(
                  eq(roomParticipants.roomId, found.id),
                  eq(roomParticipants.kind, "external"),
                  eq(roomParticipants.address, found.externalAddress),
                ),
              );
        }
        if (Object.keys(patch).length === 0) return { room: found, created: false };
        const [room] = await tx.update(rooms).set(patch).where(eq(rooms.id, found.id)).returning();
        return { room: room ?? found, created: false };
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
      if (patch.collected && Object.keys(patch.collected).length > 0) {
        const [current] = await db
          .select({ orgId: conversations.orgId })
          .from(conversations)
          .where(eq(conversations.uuid, uuid))
          .limit(1);
        const settings = current ? await redactionOf(current.orgId) : null;
        if (settings) patch = { ...patch, collected: redactDeep(patch.collected, settings) };
      }
      const [row] = await db.update(conversations).set(patch).where(eq(conversations.uuid, uuid)).returning();
      return row ?? null;
    },

    async insertMessage(raw: NewMessage): Promise<MessageRow> {
      const values = redactMessage(raw, await redactionOf(raw.orgId));
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
    async upsertLog(raw: LogRowValues): Promise<void> {
      const settings = raw.data ? await redactionOf(raw.orgId) : null;
      const values = settings && raw.data ? { ...raw, data: redactLogData(raw.data, settings) } : raw;
      const { uuid: _uuid, orgId: _orgId, ...changes } = values;
      await db
        .insert(conversationLogs)
        .values(values)
        .onConflictDoUpdate({ target: conversationLogs.uuid, set: { ...changes, updatedAt: sql`now()` } });
    },

    /**
     * A conversation's analysis: on the conversation (`outcome.analysis`) and merged into its log row's data
     * (`logData`, already redacted), in one transaction.
     */
    async keepAnalysis(uuid: string, analysis: unknown, logData: Record<string, unknown>): Promise<void> {
      const outcome = JSON.stringify({ analysis });
      const data = JSON.stringify(logData);
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`update conversations set outcome = outcome || ${outcome}::jsonb where uuid = ${uuid}`,
        );
        await tx.execute(
          sql`update conversation_logs set data = data || ${data}::jsonb, updated_at = now() where uuid = ${uuid}`,
        );
      });
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
