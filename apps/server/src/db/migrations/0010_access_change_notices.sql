-- Whenever tokens, users, memberships or accounts change, every server instance is told
-- (NOTIFY switchboard_access_changed) and forgets the sessions it resolved, so a revoked token, a removed
-- membership or a disabled account stops working everywhere. Statement triggers: one notice per statement,
-- folded within a transaction and delivered at commit. New tokens need no notice.
CREATE FUNCTION "access_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('switchboard_access_changed', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "auth_tokens_access_changed" AFTER UPDATE OR DELETE ON "auth_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "users_access_changed" AFTER UPDATE OR DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "memberships_access_changed" AFTER INSERT OR UPDATE OR DELETE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed_notify"();
--> statement-breakpoint
CREATE TRIGGER "accounts_access_changed" AFTER UPDATE OR DELETE ON "accounts"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed_notify"();
