import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

export type TaskChannelValue = "call" | "text";
export type TaskStateValue =
  | "queued"
  | "scheduled"
  | "in_progress"
  | "completed"
  | "failed"
  | "cancelled"
  | "deleted";

/** A list of tasks: one upload (or the tasks created through the API with its id). Paused lists wait. */
export const taskLists = pgTable(
  "task_lists",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    channel: text("channel").$type<TaskChannelValue>().notNull(),
    state: text("state").$type<"active" | "paused" | "cancelled">().notNull().default("active"),
    source: text("source").$type<"csv" | "api">().notNull().default("csv"),
    /** Data rows of the upload, and how many of them were refused. */
    rows: integer("rows").notNull().default(0),
    errorRows: integer("error_rows").notNull().default(0),
    createdByUserId: integer("created_by_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("task_lists_org_idx").on(t.orgId, t.id)],
);

/**
 * One outbound task: the agent calls or texts one person. `next_attempt_at` is when the scheduler may next
 * take it (scheduled time, calling hours, retry delay); the dispatcher claims due ones per organisation.
 */
export const tasks = pgTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    listId: integer("list_id").references(() => taskLists.id, { onDelete: "cascade" }),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    channel: text("channel").$type<TaskChannelValue>().notNull(),
    /** E.164. */
    phoneNumber: text("phone_number").notNull(),
    name: text("name"),
    email: text("email"),
    timeZone: text("time_zone"),
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    message: text("message"),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(3),
    state: text("state").$type<TaskStateValue>().notNull().default("queued"),
    outcome: text("outcome"),
    roomId: text("room_id"),
    conversationUuid: text("conversation_uuid"),
    callId: text("call_id"),
    answeredBy: text("answered_by"),
    amdDecisionMs: integer("amd_decision_ms"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("tasks_org_created_idx").on(t.orgId, t.createdAt.desc(), t.id),
    index("tasks_org_list_idx").on(t.orgId, t.listId, t.state),
    index("tasks_org_state_idx").on(t.orgId, t.state),
    index("tasks_org_phone_idx").on(t.orgId, t.phoneNumber),
    index("tasks_org_conversation_idx").on(t.orgId, t.conversationUuid),
    // The dispatcher's question: an organisation's tasks that wait, by when they are due.
    index("tasks_due_idx").on(t.orgId, t.nextAttemptAt).where(sql`state in ('queued', 'scheduled')`),
  ],
);

/** Each attempt of a task: when it started and ended, what came of it, the conversation or call. */
export const taskAttempts = pgTable(
  "task_attempts",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    taskId: text("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    outcome: text("outcome"),
    error: text("error"),
    roomId: text("room_id"),
    conversationUuid: text("conversation_uuid"),
    /** A text attempt's message: stored before it is sent, so a retried attempt never sends it twice. */
    messageId: integer("message_id"),
    /**
     * When a text attempt began handing its message to the carrier (set once, before the carrier is asked):
     * a re-run of the attempt that finds it set and the message not marked sent never sends it again.
     */
    sendStartedAt: timestamp("send_started_at", { withTimezone: true }),
    callId: text("call_id"),
    answeredBy: text("answered_by"),
    amdDecisionMs: integer("amd_decision_ms"),
    durationSeconds: real("duration_seconds"),
  },
  (t) => [
    uniqueIndex("task_attempts_task_attempt_key").on(t.taskId, t.attempt),
    index("task_attempts_org_started_idx").on(t.orgId, t.startedAt),
  ],
);

/** An organisation's task limits (defaults in packages/api DEFAULT_TASK_LIMITS for what is not set). */
export const taskLimits = pgTable("task_limits", {
  orgId: integer("org_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  limits: jsonb("limits").$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Numbers that texted an opt-out word: no more texts or tasks to them from the organisation. */
export const taskOptOuts = pgTable(
  "task_opt_outs",
  {
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    phoneNumber: text("phone_number").notNull(),
    word: text("word").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.phoneNumber] })],
);
