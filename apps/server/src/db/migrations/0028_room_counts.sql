CREATE TABLE "room_counts" (
	"org_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"folder" text NOT NULL,
	"archived" boolean NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "room_counts_key" UNIQUE("org_id","agent_account_id","folder","archived")
);
--> statement-breakpoint
-- Row triggers: a room is created or moved one at a time, and the update trigger fires only when a counted
-- column changes (new messages update rooms all the time and leave the counts alone).
CREATE FUNCTION "room_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD."kind" = 'live' THEN
    INSERT INTO "room_counts" AS c ("org_id", "agent_account_id", "folder", "archived", "n")
    VALUES (OLD."org_id", OLD."agent_account_id", OLD."folder", OLD."status" = 'archived', -1)
    ON CONFLICT ON CONSTRAINT "room_counts_key" DO UPDATE SET "n" = c."n" + excluded."n";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."kind" = 'live' THEN
    INSERT INTO "room_counts" AS c ("org_id", "agent_account_id", "folder", "archived", "n")
    VALUES (NEW."org_id", NEW."agent_account_id", NEW."folder", NEW."status" = 'archived', 1)
    ON CONFLICT ON CONSTRAINT "room_counts_key" DO UPDATE SET "n" = c."n" + excluded."n";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "room_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "room_counts";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "room_counts_insert" AFTER INSERT ON "rooms"
  FOR EACH ROW EXECUTE FUNCTION "room_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "room_counts_update" AFTER UPDATE OF "org_id", "agent_account_id", "kind", "folder", "status" ON "rooms"
  FOR EACH ROW WHEN (
    OLD."org_id" IS DISTINCT FROM NEW."org_id" OR OLD."agent_account_id" IS DISTINCT FROM NEW."agent_account_id"
    OR OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."folder" IS DISTINCT FROM NEW."folder"
    OR (OLD."status" = 'archived') IS DISTINCT FROM (NEW."status" = 'archived')
  ) EXECUTE FUNCTION "room_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "room_counts_delete" AFTER DELETE ON "rooms"
  FOR EACH ROW EXECUTE FUNCTION "room_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "room_counts_truncate" AFTER TRUNCATE ON "rooms"
  FOR EACH STATEMENT EXECUTE FUNCTION "room_counts_truncate"();
--> statement-breakpoint
INSERT INTO "room_counts" ("org_id", "agent_account_id", "folder", "archived", "n")
SELECT "org_id", "agent_account_id", "folder", "status" = 'archived', count(*)
FROM "rooms" WHERE "kind" = 'live'
GROUP BY 1, 2, 3, 4;
