import type { LogChannel } from "@switchboard/core";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

export type Channel = "web" | "sms" | "voice";
export type RoomStatus = "open" | "closed" | "archived";
export type MessageRole = "user" | "assistant" | "operator" | "system";

/** A tool the agent called in a turn: the arguments as the model sent them. */
export type StoredToolCall = { toolCallId: string; name: string; arguments: unknown };
/** What a tool answered: `result` when it ran, `error` when it refused or failed; `summary` for people. */
export type StoredToolResult = {
  toolCallId: string;
  name: string;
  result?: unknown;
  error?: string;
  summary: string;
};

/**
 * A room: one thread between an organisation's agent and an outside party (a phone number, an e-mail or a
 * web visitor), in one channel. The inbox lists rooms; every session in it is a conversation below.
 */
export const rooms = pgTable(
  "rooms",
  {
    id: text("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    channel: text("channel").$type<Channel>().notNull(),
    /** `test`: the builder's test chat; `live`: real callers and texters. */
    kind: text("kind").$type<"test" | "live">().notNull().default("live"),
    status: text("status").$type<RoomStatus>().notNull().default("open"),
    aiAgentEnabled: boolean("ai_agent_enabled").notNull().default(true),
    /** The outside party's address (E.164 number, e-mail or username); null for a test chat. */
    externalAddress: text("external_address"),
    title: text("title"),
    lastMessageText: text("last_message_text"),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    /** Inbox tab: `priority` (default) or `agent` (shown as Junk: blocked senders, rooms moved there). */
    folder: text("folder").$type<"priority" | "agent">().notNull().default("priority"),
    /** The organisation's rating of the conversation (1-5), null until rated. */
    rating: integer("rating"),
    /** The newest message from the outside party: later than a user's read mark means unread for them. */
    lastInboundMessageId: integer("last_inbound_message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("rooms_org_last_idx").on(t.orgId, t.lastMessageAt),
    index("rooms_inbox_idx").on(t.orgId, t.folder, t.lastMessageAt.desc().nullsLast(), t.id),
    index("rooms_org_agent_idx").on(t.orgId, t.agentAccountId, t.lastMessageAt),
    index("rooms_org_address_idx").on(t.orgId, t.externalAddress),
    // The inbox list's total (and its unread filter's) counted from the index alone: everything the count
    // reads of a live room is a column of this index.
    index("rooms_inbox_count_idx")
      .on(t.orgId, t.folder, t.status, t.agentAccountId, t.id, t.lastInboundMessageId)
      .where(sql`kind = 'live'`),
  ],
);

/**
 * How many live rooms each agent of an organisation has in each inbox folder, archived or not: the inbox
 * list's total is summed from here instead of counting the rooms (10,000 rooms cost 7 ms to count, and
 * the total is asked with every page). Kept by row triggers on rooms (migration 0028) in the writing
 * transaction; an update that leaves a room's organisation, agent, kind, folder and status as they were
 * (a new message) does not touch it.
 */
export const roomCounts = pgTable(
  "room_counts",
  {
    orgId: integer("org_id").notNull(),
    agentAccountId: integer("agent_account_id").notNull(),
    folder: text("folder").$type<"priority" | "agent">().notNull(),
    archived: boolean("archived").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [unique("room_counts_key").on(t.orgId, t.agentAccountId, t.folder, t.archived)],
);

/** Who takes part in a room: the agent account, users of the organisation, outside addresses. */
export const roomParticipants = pgTable(
  "room_participants",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"agent" | "user" | "external">().notNull(),
    accountId: integer("account_id"),
    userId: integer("user_id"),
    address: text("address"),
    displayName: text("display_name"),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("room_participants_room_idx").on(t.roomId), index("room_participants_org_idx").on(t.orgId)],
);

/**
 * One session in a room (a call, a chat, an SMS exchange) run by one agent configuration: what a log row
 * describes. `collected` holds the data the agent collected; `outcome` transfer and end-call results.
 */
export const conversations = pgTable(
  "conversations",
  {
    uuid: text("uuid").primaryKey(),
    orgId: integer("org_id").notNull(),
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    agentAccountId: integer("agent_account_id").notNull(),
    channel: text("channel").$type<Channel>().notNull(),
    stage: text("stage").$type<"staging" | "production">().notNull(),
    direction: text("direction").$type<"inbound" | "outbound">().notNull().default("inbound"),
    fromAddress: text("from_address"),
    toAddress: text("to_address"),
    callId: text("call_id"),
    status: text("status").$type<"active" | "ended">().notNull().default("active"),
    /** The model of the last turn ("Sandbox model", "openai:gpt-4o-mini", ...). */
    model: text("model"),
    collected: jsonb("collected").$type<Record<string, unknown>>().notNull().default({}),
    outcome: jsonb("outcome").$type<Record<string, unknown>>().notNull().default({}),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("conversations_org_room_idx").on(t.orgId, t.roomId, t.startedAt),
    index("conversations_org_agent_idx").on(t.orgId, t.agentAccountId, t.startedAt),
    // The quiet-texts check: text conversations by when they went quiet.
    index("conversations_text_activity_idx").on(t.lastActivityAt).where(sql`${t.channel} in ('sms', 'web')`),
  ],
);

/**
 * Every message of a room. An agent turn is one `assistant` message with its text, the tool calls it made
 * and their results, the model, tokens and timing. A turn that failed keeps `status` failed, its error and
 * the tools that did run, and an empty text: nothing half-written is kept as the answer.
 */
export const conversationMessages = pgTable(
  "conversation_messages",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    conversationUuid: text("conversation_uuid"),
    role: text("role").$type<MessageRole>().notNull(),
    senderUserId: integer("sender_user_id"),
    senderAddress: text("sender_address"),
    text: text("text").notNull().default(""),
    media: jsonb("media").$type<unknown[]>(),
    toolCalls: jsonb("tool_calls").$type<StoredToolCall[]>().notNull().default([]),
    toolResults: jsonb("tool_results").$type<StoredToolResult[]>().notNull().default([]),
    status: text("status").$type<"complete" | "failed">().notNull().default("complete"),
    error: text("error"),
    model: text("model"),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    /** ms from the start of the turn to its first streamed text. */
    firstTokenMs: integer("first_token_ms"),
    durationMs: integer("duration_ms"),
    /** Text messages: queued, sent, delivered, failed (outbound) or received (inbound); null otherwise. */
    deliveryStatus: text("delivery_status").$type<"queued" | "sent" | "delivered" | "failed" | "received">(),
    /** The carrier's id of the text message (Twilio MessageSid, sandbox id). */
    carrierMessageId: text("carrier_message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("conversation_messages_room_idx").on(t.orgId, t.roomId, t.id),
    index("conversation_messages_conversation_idx").on(t.conversationUuid, t.id),
    /** Realtime catch-up: an organisation's messages after the last one a browser saw. */
    index("conversation_messages_org_idx").on(t.orgId, t.id),
  ],
);

/**
 * One row per conversation, in the shape packages/core's log filters and metrics read (core LOG_COLUMNS:
 * fixed snake_case columns, further collected fields in jsonb `data`, e.g. appointmentBooked).
 */
export const conversationLogs = pgTable(
  "conversation_logs",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    accountId: integer("account_id"),
    accountName: text("account_name"),
    agentId: integer("agent_id"),
    timestamp: timestamp("timestamp", { withTimezone: true }).notNull().defaultNow(),
    /** Seconds. */
    duration: integer("duration").notNull().default(0),
    fromNumber: text("from_number"),
    toNumber: text("to_number"),
    cnam: text("cnam"),
    roomId: text("room_id"),
    direction: text("direction"),
    /** "1" when the conversation was transferred, else "0" (core filters it as an integer). */
    transfer: text("transfer").notNull().default("0"),
    callId: text("call_id"),
    uuid: text("uuid").notNull(),
    /**
     * The conversation's channel (core's LOG_CHANNELS): `voice` rows are the calls the Calls screen lists;
     * texts (`sms`) and chats (`web`, the editor's test chat among them) are kept apart (migration 0031).
     */
    channel: text("channel").$type<LogChannel>().notNull().default("voice"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("conversation_logs_uuid_key").on(t.uuid),
    // Pages, counts, exports and metrics of one tenant's window, newest first with a stable tiebreak; the
    // fixed filterable columns after (org_id, timestamp, id) make counts and metrics over them index-only
    // scans (drizzle has no INCLUDE, so they are trailing key columns).
    index("conversation_logs_org_time_cover_idx").on(
      t.orgId,
      t.timestamp,
      t.id,
      t.agentId,
      t.accountId,
      t.duration,
      t.direction,
      t.transfer,
      t.channel,
    ),
    index("conversation_logs_org_agent_idx").on(t.orgId, t.agentId, t.timestamp),
    // Calls at the advanced voice tier alone: the usage sweep and statistics sum their minutes from here
    // instead of reading every call's data (migration 0034).
    index("conversation_logs_advanced_voice_idx")
      .on(t.orgId, t.timestamp, t.duration, t.agentId)
      .where(sql`${t.channel} = 'voice' AND (${t.data} ->> 'voiceTier') = 'advanced'`),
  ],
);

/**
 * Exact counts of `conversation_logs` per organisation, 15-minute bucket and the rollup dimensions (account,
 * agent, direction, transfer, channel, and `data` reduced to the rolled-up keys: appointmentBooked and
 * taskCompleted), with the sums the default metrics need. Kept by statement triggers on conversation_logs
 * (migrations 0007, 0031) in the writing
 * transaction, so it is always exactly the rows. Columns are named as in conversation_logs so core's filter
 * SQL and the metric translator run on it unchanged. Whole buckets of a window are read here, its edges
 * from the rows.
 */
export const conversationLogRollups = pgTable(
  "conversation_log_rollups",
  {
    orgId: integer("org_id").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    accountId: integer("account_id"),
    agentId: integer("agent_id"),
    direction: text("direction"),
    transfer: text("transfer").notNull(),
    channel: text("channel").$type<LogChannel>().notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
    durationSum: bigint("duration_sum", { mode: "number" }).notNull(),
    answered: bigint("answered", { mode: "number" }).notNull(),
  },
  (t) => [
    unique("conversation_log_rollups_key")
      .on(t.orgId, t.bucket, t.accountId, t.agentId, t.direction, t.transfer, t.channel, t.data)
      .nullsNotDistinct(),
  ],
);

/**
 * {@link conversationLogRollups} summed per hour (same dimensions and sums; `bucket` is the hour): a 30-day
 * window's whole hours read here are a quarter of the rows, and a day at any whole-hour UTC offset is whole
 * hours. The quarter hours at a window's edges (and days at offsets such as +05:30) read the 15-minute
 * rollup. Kept by the same statement triggers (migration 0032).
 */
export const conversationLogRollupsHourly = pgTable(
  "conversation_log_rollups_hourly",
  {
    orgId: integer("org_id").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    accountId: integer("account_id"),
    agentId: integer("agent_id"),
    direction: text("direction"),
    transfer: text("transfer").notNull(),
    channel: text("channel").$type<LogChannel>().notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
    durationSum: bigint("duration_sum", { mode: "number" }).notNull(),
    answered: bigint("answered", { mode: "number" }).notNull(),
  },
  (t) => [
    unique("conversation_log_rollups_hourly_key")
      .on(t.orgId, t.bucket, t.accountId, t.agentId, t.direction, t.transfer, t.channel, t.data)
      .nullsNotDistinct(),
  ],
);

/**
 * How many of an organisation's calls of each 15-minute bucket (and agent) collected each value of each
 * field (the text `data ->> key` gives, up to {@link LOG_VALUE_MAX_LENGTH} characters), so a filter "field
 * is value" counts whole buckets of a window from here and only the window's two partial buckets from the
 * rows. Kept by statement triggers on conversation_logs (migration 0012) in the writing transaction.
 */
export const conversationLogValueCounts = pgTable(
  "conversation_log_value_counts",
  {
    orgId: integer("org_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
    bucket: timestamp("bucket", { withTimezone: true }).notNull(),
    agentId: integer("agent_id"),
    channel: text("channel").$type<LogChannel>().notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [
    unique("conversation_log_value_counts_key")
      .on(t.orgId, t.key, t.value, t.bucket, t.agentId, t.channel)
      .nullsNotDistinct(),
  ],
);

/** Longer collected values are not counted in conversation_log_value_counts (their filters count rows). */
export const LOG_VALUE_MAX_LENGTH = 200;

/**
 * How many of an organisation's calls of each UTC day (and agent) lasted exactly each number of seconds, so
 * a filter on the duration alone counts whole days of a window from here (a day holds a few hundred distinct
 * durations for thousands of calls) and only the window's two partial days from the rows. Kept by statement
 * triggers on conversation_logs (migration 0012) in the writing transaction.
 */
export const conversationLogDurations = pgTable(
  "conversation_log_durations",
  {
    orgId: integer("org_id").notNull(),
    day: timestamp("day", { withTimezone: true }).notNull(),
    agentId: integer("agent_id"),
    channel: text("channel").$type<LogChannel>().notNull(),
    duration: integer("duration").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [
    unique("conversation_log_durations_key")
      .on(t.orgId, t.day, t.agentId, t.channel, t.duration)
      .nullsNotDistinct(),
    // A count's whole days read from the index alone: the channel and the day range lead, the duration is
    // filtered in it, and the agent and count follow (drizzle has no INCLUDE, so they are key columns).
    index("conversation_log_durations_cover_idx").on(t.orgId, t.channel, t.day, t.duration, t.agentId, t.n),
  ],
);
