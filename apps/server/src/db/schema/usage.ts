import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

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
