import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

/**
 * A calendar an account connected: Google Calendar (OAuth tokens) or Calendly (a personal access token).
 * Owned by an organisation or one of its agent accounts; an agent books into its own connection, else its
 * organisation's. Credentials are stored encrypted with the server key; `state` turns `broken` (with the
 * provider's reason) when the provider refuses them, so the owner is told to reconnect.
 */
export const calendarConnections = pgTable(
  "calendar_connections",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    provider: text("provider").$type<"google" | "calendly">().notNull(),
    credentialsEncrypted: text("credentials_encrypted").notNull(),
    /** Who is connected, as the provider names them (e-mail). */
    externalAccount: text("external_account"),
    /** Google: the main calendar bookings go to. Calendly: the event type booked. */
    mainCalendarId: text("main_calendar_id"),
    mainCalendarName: text("main_calendar_name"),
    /** Calendly: the user's uri and scheduling page. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    state: text("state").$type<"connected" | "broken">().notNull().default("connected"),
    brokenReason: text("broken_reason"),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("calendar_connections_account_provider_idx").on(t.accountId, t.provider)],
);

/**
 * The offline sandbox calendars (CALENDARS=sandbox): the events of sandbox Google calendars and sandbox
 * Calendly users, kept here so the sandbox answers free/busy, create and cancel like the real services.
 */
export const sandboxCalendarEvents = pgTable(
  "sandbox_calendar_events",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").$type<"google" | "calendly">().notNull(),
    /** The sandbox user (a Google e-mail, or the Calendly token's user). */
    owner: text("owner").notNull(),
    calendarId: text("calendar_id").notNull(),
    startAt: timestamp("start_at", { withTimezone: true }).notNull(),
    endAt: timestamp("end_at", { withTimezone: true }).notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    attendeeName: text("attendee_name"),
    attendeeEmail: text("attendee_email"),
    status: text("status").$type<"confirmed" | "cancelled">().notNull().default("confirmed"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_calendar_events_owner_idx").on(t.provider, t.owner, t.calendarId, t.startAt)],
);

/** Settings an installed integration keeps per account and slug (`appData` of /api/v2/integration/{slug}). */
export const integrationAppData = pgTable(
  "integration_app_data",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Secret values of the data (API keys), encrypted; answered masked. */
    secretEncrypted: text("secret_encrypted"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.slug] })],
);
