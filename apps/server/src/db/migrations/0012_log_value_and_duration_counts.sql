CREATE TABLE "conversation_log_durations" (
	"org_id" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"agent_id" integer,
	"duration" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "conversation_log_durations_key" UNIQUE NULLS NOT DISTINCT("org_id","day","agent_id","duration")
);
--> statement-breakpoint
CREATE TABLE "conversation_log_value_counts" (
	"org_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"agent_id" integer,
	"n" bigint NOT NULL,
	CONSTRAINT "conversation_log_value_counts_key" UNIQUE NULLS NOT DISTINCT("org_id","key","value","bucket","agent_id")
);
--> statement-breakpoint
-- Both are kept like the rollup (migration 0007): statement triggers with transition tables, one grouped
-- upsert per writing statement, in the writing transaction. Collected values are the text `data ->> key`
-- gives (what a filter on the field compares), up to 200 characters (LOG_VALUE_MAX_LENGTH), counted per
-- 15-minute bucket; JSON nulls have none. Durations are counted per UTC day.
CREATE FUNCTION "conversation_log_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_value_counts" AS c ("org_id", "key", "value", "bucket", "agent_id", "n")
    SELECT o."org_id", kv.key, kv.value, date_bin('15 minutes', o."timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'),
      o."agent_id", -count(*)
    FROM old_rows o, jsonb_each_text(o."data") kv
    WHERE kv.value IS NOT NULL AND length(kv.value) <= 200
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT "conversation_log_value_counts_key" DO UPDATE SET "n" = c."n" + excluded."n";
    INSERT INTO "conversation_log_durations" AS d ("org_id", "day", "agent_id", "duration", "n")
    SELECT "org_id", date_bin('1 day', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "agent_id", "duration", -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT "conversation_log_durations_key" DO UPDATE SET "n" = d."n" + excluded."n";
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO "conversation_log_value_counts" AS c ("org_id", "key", "value", "bucket", "agent_id", "n")
    SELECT n."org_id", kv.key, kv.value, date_bin('15 minutes', n."timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'),
      n."agent_id", count(*)
    FROM new_rows n, jsonb_each_text(n."data") kv
    WHERE kv.value IS NOT NULL AND length(kv.value) <= 200
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT "conversation_log_value_counts_key" DO UPDATE SET "n" = c."n" + excluded."n";
    INSERT INTO "conversation_log_durations" AS d ("org_id", "day", "agent_id", "duration", "n")
    SELECT "org_id", date_bin('1 day', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "agent_id", "duration", count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT "conversation_log_durations_key" DO UPDATE SET "n" = d."n" + excluded."n";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "conversation_log_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "conversation_log_value_counts", "conversation_log_durations";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_insert" AFTER INSERT ON "conversation_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_update" AFTER UPDATE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_delete" AFTER DELETE ON "conversation_logs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "conversation_log_counts_truncate" AFTER TRUNCATE ON "conversation_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION "conversation_log_counts_truncate"();
--> statement-breakpoint
INSERT INTO "conversation_log_value_counts" ("org_id", "key", "value", "bucket", "agent_id", "n")
SELECT l."org_id", kv.key, kv.value, date_bin('15 minutes', l."timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'),
  l."agent_id", count(*)
FROM "conversation_logs" l, jsonb_each_text(l."data") kv
WHERE kv.value IS NOT NULL AND length(kv.value) <= 200
GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "conversation_log_durations" ("org_id", "day", "agent_id", "duration", "n")
SELECT "org_id", date_bin('1 day', "timestamp", TIMESTAMPTZ '1970-01-01 00:00:00+00'), "agent_id", "duration", count(*)
FROM "conversation_logs" GROUP BY 1, 2, 3, 4;
