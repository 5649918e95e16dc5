import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The job runners at work on this database, one row per server process (jobs/heartbeat.ts): each reports
 * every few seconds and tags the pg-boss jobs it takes with its id. A job whose runner stopped reporting
 * is released for a retry by the others (or by the next start) instead of waiting for its expiry.
 */
export const jobWorkers = pgTable("job_workers", {
  id: text("id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
});
