import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

/**
 * The account's own schedule: appointments an agent booked (the calendar booking app, when no calendar
 * integration is connected) or a person entered.
 */
export const scheduleBookings = pgTable(
  "schedule_bookings",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    startAt: timestamp("start_at", { withTimezone: true }).notNull(),
    endAt: timestamp("end_at", { withTimezone: true }).notNull(),
    name: text("name").notNull(),
    phoneNumber: text("phone_number"),
    email: text("email"),
    notes: text("notes"),
    status: text("status").$type<"booked" | "cancelled">().notNull().default("booked"),
    source: text("source").$type<"agent" | "manual">().notNull().default("agent"),
    roomId: text("room_id"),
    /** Where the booking was also written: a connected Google calendar or Calendly (null: only here). */
    calendarProvider: text("calendar_provider").$type<"google" | "calendly">(),
    externalId: text("external_id"),
    conversationUuid: text("conversation_uuid"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("schedule_bookings_org_agent_idx").on(t.orgId, t.agentAccountId, t.startAt)],
);
