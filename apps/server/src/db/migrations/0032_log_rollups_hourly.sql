CREATE TABLE "conversation_log_rollups_hourly" (
	"org_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"account_id" integer,
	"agent_id" integer,
	"direction" text,
	"transfer" text NOT NULL,
	"channel" text NOT NULL,
	"data" jsonb NOT NULL,
	"n" bigint NOT NULL,
	"duration_sum" bigint NOT NULL,
	"answered" bigint NOT NULL,
	CONSTRAINT "conversation_log_rollups_hourly_key" UNIQUE NULLS NOT DISTINCT("org_id","bucket","account_id","agent_id","direction","transfer","channel","data")
);
--> statement-breakpoint
-- Kept with the 15-minute rollup by its statement triggers (migrations 0007, 0031): one more grouped upsert
-- per writing statement.
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
    INSERT INTO "conversation_log_rollups_hourly" AS r
      ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "channel", "data", "n", "duration_sum", "answered")
    SELECT "org_id", date_bin('1 hour', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
      "direction", "transfer", "channel", "conversation_log_rollup_data"("data"),
      -count(*), -coalesce(sum("duration"), 0), -count(*) FILTER (WHERE "duration" > 0)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT "conversation_log_rollups_hourly_key" DO UPDATE SET
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
    INSERT INTO "conversation_log_rollups_hourly" AS r
      ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "channel", "data", "n", "duration_sum", "answered")
    SELECT "org_id", date_bin('1 hour', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
      "direction", "transfer", "channel", "conversation_log_rollup_data"("data"),
      count(*), coalesce(sum("duration"), 0), count(*) FILTER (WHERE "duration" > 0)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT "conversation_log_rollups_hourly_key" DO UPDATE SET
      "n" = r."n" + excluded."n", "duration_sum" = r."duration_sum" + excluded."duration_sum",
      "answered" = r."answered" + excluded."answered";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "conversation_log_rollups_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "conversation_log_rollups", "conversation_log_rollups_hourly";
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO "conversation_log_rollups_hourly"
  ("org_id", "bucket", "account_id", "agent_id", "direction", "transfer", "channel", "data", "n", "duration_sum", "answered")
SELECT "org_id", date_bin('1 hour', "bucket", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "account_id", "agent_id",
  "direction", "transfer", "channel", "data", sum("n"), sum("duration_sum"), sum("answered")
FROM "conversation_log_rollups" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
