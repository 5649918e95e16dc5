import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts.ts";
import { authTokens } from "./auth.ts";

/**
 * An organisation's webhook endpoints. `type` is one event type or `all`. The signing secret (`whsec_...`)
 * is stored encrypted with the server key and shown once, at creation and at each rotation; after a
 * rotation the previous secret still signs beside the new one until `previous_secret_expires_at`.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    label: text("label").notNull().default(""),
    type: text("type").notNull(),
    secretEncrypted: text("secret_encrypted").notNull(),
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    /** Deliveries that failed for good in a row; reset by a success. */
    failureStreak: integer("failure_streak").notNull().default(0),
    /** Set when the endpoint kept failing (or by hand): no new deliveries until it is enabled again. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_org_idx").on(t.orgId, t.id)],
);

/**
 * One event for one endpoint: the signed body (with its `webhook-id`, the delivery's `message_id`) and where
 * its delivery stands. Delivered by the `webhooks-deliver` job, at least once.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The Standard Webhooks `webhook-id`: the same on every attempt and resend (receivers deduplicate). */
    messageId: text("message_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<"pending" | "succeeded" | "failed">().notNull().default("pending"),
    /** Attempts of the current series (a resend starts a new one, with `series` one higher). */
    attemptCount: integer("attempt_count").notNull().default(0),
    series: integer("series").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_org_idx").on(t.orgId, t.id),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    uniqueIndex("webhook_deliveries_message_key").on(t.messageId),
  ],
);

/** Every attempt of a delivery: when, the answer's status (null when none came), an excerpt, the error. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
    durationMs: integer("duration_ms").notNull(),
    status: integer("status"),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);

/**
 * Organisation API tokens (server-to-server). The token itself is a session-like row of `auth_tokens`
 * (kind `api`, hashed, revoked by deleting it: every instance forgets it at once through the access
 * notices); this row keeps what the Developers page lists: description, type, a hint and the last use.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    authTokenId: integer("auth_token_id")
      .notNull()
      .references(() => authTokens.id, { onDelete: "cascade" }),
    description: text("description").notNull().default(""),
    type: text("type").$type<"full" | "readOnly">().notNull(),
    /** The token's first and last characters, for the masked list. */
    hint: text("hint").notNull(),
    createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    index("api_tokens_org_idx").on(t.orgId, t.id),
    uniqueIndex("api_tokens_auth_token_key").on(t.authTokenId),
  ],
);
