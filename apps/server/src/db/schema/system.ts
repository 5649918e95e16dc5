import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** One row per server process start: readiness, the debug overlay and scale-out bookkeeping read it. */
export const serverInstances = pgTable(
  "server_instances",
  {
    id: text("id").primaryKey(),
    hostname: text("hostname").notNull(),
    pid: integer("pid").notNull(),
    version: text("version").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
  },
  (table) => [index("server_instances_last_seen_idx").on(table.lastSeenAt)],
);

/** Server-wide values that must be the same on every instance (e.g. a generated secret key). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
