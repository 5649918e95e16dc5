-- Every write to what the inbox list shows tells each server instance which organisations changed
-- (NOTIFY switchboard_inbox_changed, payload the organisation id), so an instance can keep answered list
-- pages in memory until they change. Statement triggers with transition tables: one notice per organisation
-- per statement, and PostgreSQL folds repeats within a transaction and delivers them at commit.
CREATE FUNCTION "inbox_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org integer;
BEGIN
  IF TG_OP = 'DELETE' THEN
    FOR org IN SELECT DISTINCT org_id FROM old_rows LOOP
      PERFORM pg_notify('switchboard_inbox_changed', org::text);
    END LOOP;
  ELSE
    FOR org IN SELECT DISTINCT org_id FROM new_rows LOOP
      PERFORM pg_notify('switchboard_inbox_changed', org::text);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An agent account's name, username and number appear in its organisation's list.
CREATE FUNCTION "inbox_agent_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  org integer;
BEGIN
  FOR org IN SELECT DISTINCT organization_id FROM new_rows WHERE organization_id IS NOT NULL LOOP
    PERFORM pg_notify('switchboard_inbox_changed', org::text);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "accounts_inbox_changed" AFTER UPDATE ON "accounts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_agent_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "rooms_inbox_changed_insert" AFTER INSERT ON "rooms"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "rooms_inbox_changed_update" AFTER UPDATE ON "rooms"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "rooms_inbox_changed_delete" AFTER DELETE ON "rooms"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "conversation_messages_inbox_changed_insert" AFTER INSERT ON "conversation_messages"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "conversation_messages_inbox_changed_update" AFTER UPDATE ON "conversation_messages"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "conversation_messages_inbox_changed_delete" AFTER DELETE ON "conversation_messages"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "room_reads_inbox_changed_insert" AFTER INSERT ON "room_reads"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "room_reads_inbox_changed_update" AFTER UPDATE ON "room_reads"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "room_reads_inbox_changed_delete" AFTER DELETE ON "room_reads"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "room_participants_inbox_changed_insert" AFTER INSERT ON "room_participants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "room_participants_inbox_changed_update" AFTER UPDATE ON "room_participants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "room_participants_inbox_changed_delete" AFTER DELETE ON "room_participants"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "contacts_inbox_changed_insert" AFTER INSERT ON "contacts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "contacts_inbox_changed_update" AFTER UPDATE ON "contacts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "contacts_inbox_changed_delete" AFTER DELETE ON "contacts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "contact_addresses_inbox_changed_insert" AFTER INSERT ON "contact_addresses"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "contact_addresses_inbox_changed_update" AFTER UPDATE ON "contact_addresses"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "contact_addresses_inbox_changed_delete" AFTER DELETE ON "contact_addresses"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_changed_notify"();
