import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

/**
 * An organisation's phone numbers: bought through the number provider (`marketplace`) or kept at the
 * business's carrier (`byo`, reached by forwarding or its SIP trunk). A number is live until released; one
 * live row per number. The agent it reaches also has it as `switchboard_phone_number` (texts use that).
 */
export const phoneNumbers = pgTable(
  "phone_numbers",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    agentAccountId: integer("agent_account_id").references(() => accounts.id, { onDelete: "set null" }),
    number: text("number").notNull(),
    country: text("country").notNull(),
    region: text("region").notNull().default(""),
    locality: text("locality").notNull().default(""),
    kind: text("kind").$type<"marketplace" | "byo">().notNull(),
    provider: text("provider").notNull(),
    /** The provider's id of the number (Twilio's PN sid, Telnyx's number id), for release. */
    providerId: text("provider_id"),
    byoMethod: text("byo_method").$type<"forwarding" | "sip">(),
    carrier: text("carrier"),
    forwardingVerifiedAt: timestamp("forwarding_verified_at", { withTimezone: true }),
    capabilities: jsonb("capabilities")
      .$type<{ voice: boolean; sms: boolean }>()
      .notNull()
      .default({ voice: true, sms: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
    /**
     * The end of the month paid for (or, for a number the plan includes, covered): the number renews then,
     * on the day of the month it was taken (`created_at`). Moved on by the renewals job, once per month.
     */
    paidThrough: timestamp("paid_through", { withTimezone: true }).notNull().defaultNow(),
    /** Set while a renewal is unpaid: the renewal date it missed; released 7 days after it. */
    pastDueSince: timestamp("past_due_since", { withTimezone: true }),
    /** What the missed renewal costs (0: the plan no longer allows the number at all). */
    pastDueCents: integer("past_due_cents"),
  },
  (t) => [
    index("phone_numbers_org_idx").on(t.orgId, t.id),
    index("phone_numbers_renewal_idx").on(t.paidThrough).where(sql`${t.releasedAt} is null`),
    uniqueIndex("phone_numbers_live_number_key").on(t.number).where(sql`${t.releasedAt} is null`),
    index("phone_numbers_agent_idx").on(t.agentAccountId),
  ],
);

/**
 * Caller-ID verification: a call reads a 6-digit code (stored hashed) to a number the organisation says is
 * its own; typing it back verifies the number for use as the caller ID of outbound calls.
 */
export const callerIdVerifications = pgTable(
  "caller_id_verifications",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    codeHash: text("code_hash"),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("caller_id_verifications_org_number_key").on(t.orgId, t.number)],
);

/**
 * Calls an agent placed (the outbound call button, tasks): where they went, how they ended, and the
 * answering-machine decision with its timing. The conversation (transcript) is the call's voice room.
 */
export const outboundCalls = pgTable(
  "outbound_calls",
  {
    id: text("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    toNumber: text("to_number").notNull(),
    fromNumber: text("from_number"),
    taskId: text("task_id"),
    route: text("route").notNull(),
    status: text("status").$type<"dialing" | "ringing" | "in-progress" | "completed">().notNull(),
    outcome: text("outcome").$type<"answered" | "voicemail" | "no_answer" | "busy" | "failed">(),
    answeredBy: text("answered_by").$type<"person" | "machine">(),
    amdDecisionMs: integer("amd_decision_ms"),
    conversationUuid: text("conversation_uuid"),
    roomId: text("room_id"),
    durationSeconds: integer("duration_seconds"),
    error: text("error"),
    variables: jsonb("variables").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    index("outbound_calls_org_idx").on(t.orgId, t.createdAt),
    index("outbound_calls_live_idx").on(t.orgId).where(sql`${t.status} <> 'completed'`),
  ],
);

/** Sandbox carrier: how the simulated callee at a number answers an organisation's outbound calls. */
export const sandboxCallees = pgTable(
  "sandbox_callees",
  {
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    behaviour: text("behaviour").$type<"person" | "voicemail" | "no_answer" | "busy" | "ivr">().notNull(),
    says: text("says"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("sandbox_callees_key").on(t.orgId, t.number)],
);
