CREATE TABLE "check_ins" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"account_id" integer,
	"kind" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"agent_id" integer,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"link" text,
	"group_key" text,
	"count" integer DEFAULT 1 NOT NULL,
	"cleared_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_link_clicks" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"link_id" integer NOT NULL,
	"clicked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"user_id" integer,
	"target" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_visits" (
	"id" serial PRIMARY KEY NOT NULL,
	"ref" text NOT NULL,
	"page" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_link_clicks" ADD CONSTRAINT "profile_link_clicks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_link_clicks" ADD CONSTRAINT "profile_link_clicks_link_id_profile_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."profile_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_links" ADD CONSTRAINT "profile_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_invites" ADD CONSTRAINT "referral_invites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_invites" ADD CONSTRAINT "referral_invites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_ins_user_kind_idx" ON "check_ins" USING btree ("user_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "notifications_org_open_idx" ON "notifications" USING btree ("org_id","updated_at") WHERE "notifications"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_group_idx" ON "notifications" USING btree ("org_id","group_key") WHERE "notifications"."cleared_at" is null;--> statement-breakpoint
CREATE INDEX "profile_link_clicks_account_idx" ON "profile_link_clicks" USING btree ("account_id","clicked_at");--> statement-breakpoint
CREATE INDEX "profile_links_account_idx" ON "profile_links" USING btree ("account_id","position");--> statement-breakpoint
CREATE INDEX "referral_invites_account_idx" ON "referral_invites" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "referral_visits_ref_idx" ON "referral_visits" USING btree ("ref","created_at");--> statement-breakpoint
CREATE INDEX "referral_visits_ip_idx" ON "referral_visits" USING btree ("ip");--> statement-breakpoint
-- Search (GET /api/v1/search/{target}): trigram indexes answer "contains" on names and addresses, a
-- full-text index answers words of the messages. pg_trgm is a contrib extension (PGlite loads it too).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contacts_name_trgm_idx" ON "contacts" USING gin ("display_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contact_addresses_trgm_idx" ON "contact_addresses" USING gin ("address" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rooms_title_trgm_idx" ON "rooms" USING gin ((coalesce("title", '') || ' ' || coalesce("external_address", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_search_trgm_idx" ON "accounts" USING gin ((lower("username") || ' ' || coalesce("details"->>'displayName', '') || ' ' || coalesce("details"->>'orgName', '') || ' ' || coalesce("details"->>'agentName', '') || ' ' || coalesce("details"->>'resellerName', '') || ' ' || coalesce("details"->>'name', '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "conversation_messages_text_fts_idx" ON "conversation_messages" USING gin (to_tsvector('simple', "text"));
