CREATE TABLE "payment_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_account_id" integer NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"amount_cents" bigint,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_connect_accounts" (
	"owner_account_id" integer PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"external_account_id" text NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"onboarding_id" text,
	"success_url" text,
	"failure_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "lightning_invoices_pending_key";--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "payment_link_id" integer;--> statement-breakpoint
ALTER TABLE "lightning_invoices" ADD COLUMN "payment_link_id" integer;--> statement-breakpoint
CREATE INDEX "payment_links_owner_idx" ON "payment_links" USING btree ("owner_account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_links_slug_key" ON "payment_links" USING btree (lower("slug"));--> statement-breakpoint
CREATE UNIQUE INDEX "lightning_invoices_pending_key" ON "lightning_invoices" USING btree ("owner_account_id") WHERE "lightning_invoices"."status" = 'pending' AND "lightning_invoices"."payment_link_id" IS NULL;