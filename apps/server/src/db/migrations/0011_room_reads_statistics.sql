-- room_reads.org_id and user_id are far from independent (a user reads the rooms of their own
-- organisations): without this, PostgreSQL guessed a handful of read marks per user where there are
-- hundreds and joined them to the inbox page by scanning them all for every room (3.7 ms instead of 1.4).
CREATE STATISTICS "room_reads_org_user_stats" (dependencies, mcv) ON "org_id", "user_id" FROM "room_reads";
--> statement-breakpoint
ANALYZE "room_reads";
