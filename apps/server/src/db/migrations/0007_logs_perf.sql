CREATE TABLE "conversation_log_rollups" (
	"org_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"account_id" integer,
	"agent_id" integer,
	"direction" text,
	"transfer" text NOT NULL,
	"data" jsonb NOT NULL,
	"n" bigint NOT NULL,
	"duration_sum" bigint NOT NULL,
	"answered" bigint NOT NULL,
	CONSTRAINT "conversation_log_rollups_key" UNIQUE NULLS NOT DISTINCT("org_id","bucket","account_id","agent_id","direction","transfer","data")
);
--> statement-breakpoint
DROP INDEX "conversation_logs_org_time_id_idx";--> statement-breakpoint
CREATE INDEX "conversation_logs_org_time_cover_idx" ON "conversation_logs" USING btree ("org_id","timestamp","id","agent_id","account_id","duration","direction","transfer");--> statement-breakpoint
-- The rollup is kept by statement triggers with transition tables: one grouped upsert per writing statement
-- (a bulk insert of 10,000 rows costs one statement, not 10,000). Buckets are 15 minutes (every real UTC
-- offset is a multiple of 15 minutes, so buckets never straddle a local day).
CREATE FUNCTION "conversation_log_rollups_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_rollups" AS r
      ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "data", "n", "duration_sum", "answered")
    SELECT "org_id", date_bin('15 minutes', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
      "direction", "transfer",
      CASE WHEN "data" ? 'appointmentBooked' THEN jsonb_build_object('appointmentBooked', "data" -> 'appointmentBooked') ELSE '{}'::jsonb END,
      -count(*), -coalesce(sum("duration"), 0), -count(*) FILTER (WHERE "duration" > 0)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ON CONSTRAINT "conversation_log_rollups_key" DO UPDATE SET
      "n" = r."n" + excluded."n", "duration_sum" = r."duration_sum" + excluded."duration_sum",
      "answered" = r."answered" + excluded."answered";
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_rollups" AS r
      ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "data", "n", "duration_sum", "answered")
    SELECT "org_id", date_bin('15 minutes', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
      "direction", "transfer",
      CASE WHEN "data" ? 'appointmentBooked' THEN jsonb_build_object('appointmentBooked', "data" -> 'appointmentBooked') ELSE '{}'::jsonb END,
      count(*), coalesce(sum("duration"), 0), count(*) FILTER (WHERE "duration" > 0)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ON CONSTRAINT "conversation_log_rollups_key" DO UPDATE SET
      "n" = r."n" + excluded."n", "duration_sum" = r."duration_sum" + excluded."duration_sum",
      "answered" = r."answered" + excluded."answered";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "conversation_log_rollups_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "conversation_log_rollups";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_insert" AFTER INSERT ON "conversation_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_update" AFTER UPDATE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_delete" AFTER DELETE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_apply"();
--> statement-breakpoint
CREATE TRIGGER "conversation_log_rollups_truncate" AFTER TRUNCATE ON "conversation_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_rollups_truncate"();
--> statement-breakpoint
INSERT INTO "conversation_log_rollups"
  ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "data", "n", "duration_sum", "answered")
SELECT "org_id", date_bin('15 minutes', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
  "direction", "transfer",
  CASE WHEN "data" ? 'appointmentBooked' THEN jsonb_build_object('appointmentBooked', "data" -> 'appointmentBooked') ELSE '{}'::jsonb END,
  count(*), coalesce(sum("duration"), 0), count(*) FILTER (WHERE "duration" > 0)
FROM "conversation_logs" GROUP BY 1, 2, 3, 4, 5, 6, 7;
