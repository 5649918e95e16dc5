import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Metered use of the agent runtime: one row per agent turn with the tokens the model used and the messages
 * that went in and out, so usage statistics (tokens, inbound-message, outbound-message) can be summed.
 */
export const runtimeUsage = pgTable(
  "runtime_usage",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    /** Null for calls that act for the organisation (drafting instructions). */
    agentAccountId: integer("agent_account_id"),
    roomId: text("room_id"),
    conversationUuid: text("conversation_uuid"),
    channel: text("channel").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    totalTokens: integer("total_tokens").notNull().default(0),
    /** Model calls of the turn (1 + one per round of tool results). */
    steps: integer("steps").notNull().default(0),
    messagesIn: integer("messages_in").notNull().default(0),
    messagesOut: integer("messages_out").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("runtime_usage_org_time_idx").on(t.orgId, t.createdAt),
    index("runtime_usage_org_agent_idx").on(t.orgId, t.agentAccountId, t.createdAt),
  ],
);

/**
 * Usage debits (issue 21): per organisation, the cursor of the periodic sweep that posts the cost of its
 * metered usage to the ledger. `seq` numbers the sweep's postings (each one's idempotency key is
 * `usage:<org>:<seq>`, and the cursor moves in the posting's transaction only if `seq` is still the one it
 * read), so reruns, restarts and two instances never post twice. Within a billing period the cost is
 * priced cumulatively (the plan's tiers over the whole period so far) and whole cents are debited as they
 * accrue: the sub-cent remainder waits for the next sweep and `carry_micros` takes it into the next period.
 * Usage before `charge_from` (history that existed before debits began: the demo's generated calls, or
 * usage before this release) is not charged.
 */
export const usageDebits = pgTable("usage_debits", {
  orgId: integer("org_id").primaryKey(),
  /** The billing period the cursor is in; null until the first sweep. */
  periodStart: timestamp("period_start", { withTimezone: true }),
  seq: integer("seq").notNull().default(0),
  /** Cents charged for this period so far (paid from the wallet and owed). */
  debitedCents: bigint("debited_cents", { mode: "number" }).notNull().default(0),
  /** The period's quantities the last posting covered (the next posting describes what came after). */
  charged: jsonb("charged").$type<Record<string, number>>().notNull().default({}),
  /** Millionths of a cent carried over from the previous period (below one cent). */
  carryMicros: bigint("carry_micros", { mode: "number" }).notNull().default(0),
  chargeFrom: timestamp("charge_from", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
