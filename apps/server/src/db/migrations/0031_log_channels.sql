-- Each log row keeps its conversation's channel (voice, sms, web): the Calls screen lists calls, and every
-- dashboard metric counts the channels it names. The counts tables (migrations 0007, 0012) gain the channel
-- as a dimension, and the rollup keeps taskCompleted beside appointmentBooked, so every default metric and
-- every count of a calls-only filter is answered from them. Their triggers are dropped while the column is
-- backfilled and the tables rebuilt (one pass each), then made again.
DROP TRIGGER "conversation_log_rollups_insert" ON "conversation_logs";--> statement-breakpoint
DROP TRIGGER "conversation_log_rollups_update" ON "conversation_logs";--> statement-breakpoint
DROP TRIGGER "conversation_log_rollups_delete" ON "conversation_logs";--> statement-breakpoint
DROP TRIGGER "conversation_log_rollups_truncate" ON "conversation_logs";--> statement-breakpoint
DROP TRIGGER "conversation_log_counts_insert" ON "conversation_logs";--> statement-breakpoint
DROP TRIGGER "conversation_log_counts_update" ON "conversation_logs";--> statement-breakpoint
DROP TRIGGER "conversation_log_counts_delete" ON "conversation_logs";--> statement-breakpoint
DROP TRIGGER "conversation_log_counts_truncate" ON "conversation_logs";--> statement-breakpoint
ALTER TABLE "conversation_logs" ADD COLUMN "channel" text DEFAULT 'voice' NOT NULL;--> statement-breakpoint
-- Every writer stored the conversation's channel in data.channel (demo and generated rows too).
UPDATE "conversation_logs" SET "channel" = "data" ->> 'channel' WHERE "data" ->> 'channel' IN ('sms', 'web');--> statement-breakpoint
DROP INDEX "conversation_logs_org_time_cover_idx";--> statement-breakpoint
CREATE INDEX "conversation_logs_org_time_cover_idx" ON "conversation_logs" USING btree ("org_id","timestamp","id","agent_id","account_id","duration","direction","transfer","channel");--> statement-breakpoint
TRUNCATE "conversation_log_rollups", "conversation_log_value_counts", "conversation_log_durations";--> statement-breakpoint
ALTER TABLE "conversation_log_durations" DROP CONSTRAINT "conversation_log_durations_key";--> statement-breakpoint
ALTER TABLE "conversation_log_rollups" DROP CONSTRAINT "conversation_log_rollups_key";--> statement-breakpoint
ALTER TABLE "conversation_log_value_counts" DROP CONSTRAINT "conversation_log_value_counts_key";--> statement-breakpoint
ALTER TABLE "conversation_log_durations" ADD COLUMN "channel" text NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_log_rollups" ADD COLUMN "channel" text NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_log_value_counts" ADD COLUMN "channel" text NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_log_durations" ADD CONSTRAINT "conversation_log_durations_key" UNIQUE NULLS NOT DISTINCT("org_id","day","agent_id","channel","duration");--> statement-breakpoint
ALTER TABLE "conversation_log_rollups" ADD CONSTRAINT "conversation_log_rollups_key" UNIQUE NULLS NOT DISTINCT("org_id","bucket","account_id","agent_id","direction","transfer","channel","data");--> statement-breakpoint
ALTER TABLE "conversation_log_value_counts" ADD CONSTRAINT "conversation_log_value_counts_key" UNIQUE NULLS NOT DISTINCT("org_id","key","value","bucket","agent_id","channel");--> statement-breakpoint
-- The rolled-up part of data: appointmentBooked and taskCompleted, each only when the row has it.
CREATE FUNCTION "conversation_log_rollup_data"("data" jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN "data" ? 'appointmentBooked' THEN jsonb_build_object('appointmentBooked', "data" -> 'appointmentBooked') ELSE '{}'::jsonb END
    || CASE WHEN "data" ? 'taskCompleted' THEN jsonb_build_object('taskCompleted', "data" -> 'taskCompleted') ELSE '{}'::jsonb END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "conversation_log_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_rollups" AS r
      ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "channel", "data", "n", "duration_sum", "answered")
    SELECT "org_id", date_bin('15 minutes', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
      "direction", "transfer", "channel", "conversation_log_rollup_data"("data"),
      -count(*), -coalesce(sum("duration"), 0), -count(*) FILTER (WHERE "duration" > 0)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT "conversation_log_rollups_key" DO UPDATE SET
      "n" = r."n" + excluded."n", "duration_sum" = r."duration_sum" + excluded."duration_sum",
      "answered" = r."answered" + excluded."answered";
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_rollups" AS r
      ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "channel", "data", "n", "duration_sum", "answered")
    SELECT "org_id", date_bin('15 minutes', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
      "direction", "transfer", "channel", "conversation_log_rollup_data"("data"),
      count(*), coalesce(sum("duration"), 0), count(*) FILTER (WHERE "duration" > 0)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT "conversation_log_rollups_key" DO UPDATE SET
      "n" = r."n" + excluded."n", "duration_sum" = r."duration_sum" + excluded."duration_sum",
      "answered" = r."answered" + excluded."answered";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "conversation_log_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_value_counts" AS c ("org_id", "key", "value", "bucket", "agent_id", "channel", "n")
    SELECT o."org_id", kv.key, kv.value, date_bin('15 minutes', o."timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'),
      o."agent_id", o."channel", -count(*)
    FROM old_rows o, jsonb_each_text(o."data") kv
    WHERE kv.value IS NOT NULL AND length(kv.value) <= 200
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ON CONSTRAINT "conversation_log_value_counts_key" DO UPDATE SET "n" = c."n" + excluded."n";
    INSERT INTO "conversation_log_durations" AS d ("org_id", "day", "agent_id", "channel", "duration", "n")
    SELECT "org_id", date_bin('1 day', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "agent_id", "channel", "duration", -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT "conversation_log_durations_key" DO UPDATE SET "n" = d."n" + excluded."n";
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_value_counts" AS c ("org_id", "key", "value", "bucket", "agent_id", "channel", "n")
    SELECT n."org_id", kv.key, kv.value, date_bin('15 minutes', n."timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'),
      n."agent_id", n."channel", count(*)
    FROM new_rows n, jsonb_each_text(n."data") kv
    WHERE kv.value IS NOT NULL AND length(kv.value) <= 200
    GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ON CONSTRAINT "conversation_log_value_counts_key" DO UPDATE SET "n" = c."n" + excluded."n";
    INSERT INTO "conversation_log_durations" AS d ("org_id", "day", "agent_id", "channel", "duration", "n")
    SELECT "org_id", date_bin('1 day', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "agent_id", "channel", "duration", count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT "conversation_log_durations_key" DO UPDATE SET "n" = d."n" + excluded."n";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "conversation_log_rollups"
  ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "channel", "data", "n", "duration_sum", "answered")
SELECT "org_id", date_bin('15 minutes', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
  "direction", "transfer", "channel", "conversation_log_rollup_data"("data"),
  count(*), coalesce(sum("duration"), 0), count(*) FILTER (WHERE "duration" > 0)
FROM "conversation_logs" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;--> statement-breakpoint
INSERT INTO "conversation_log_value_counts" ("org_id", "key", "value", "bucket", "agent_id", "channel", "n")
SELECT l."org_id", kv.key, kv.value, date_bin('15 minutes', l."timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'),
  l."agent_id", l."channel", count(*)
FROM "conversation_logs" l, jsonb_each_text(l."data") kv
WHERE kv.value IS NOT NULL AND length(kv.value) <= 200
GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO "conversation_log_durations" ("org_id", "day", "agent_id", "channel", "duration", "n")
SELECT "org_id", date_bin('1 day', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "agent_id", "channel", "duration", count(*)
FROM "conversation_logs" GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_insert" AFTER INSERT ON "conversation_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_apply"();--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_update" AFTER UPDATE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_apply"();--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_delete" AFTER DELETE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_apply"();--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_truncate" AFTER TRUNCATE ON "conversation_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_truncate"();--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_insert" AFTER INSERT ON "conversation_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_update" AFTER UPDATE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_delete" AFTER DELETE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_truncate" AFTER TRUNCATE ON "conversation_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_truncate"();
