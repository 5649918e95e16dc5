import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

/**
 * An organisation's own language model, overriding the deployment's (LLM_* settings). The API key is
 * stored encrypted with the server key (AES-256-GCM); `api_key_hint` keeps its last characters for display.
 */
export const orgModelSettings = pgTable("org_model_settings", {
  orgId: integer("org_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  provider: text("provider").notNull(),
  baseUrl: text("base_url"),
  model: text("model"),
  apiKeyEncrypted: text("api_key_encrypted"),
  apiKeyHint: text("api_key_hint"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
