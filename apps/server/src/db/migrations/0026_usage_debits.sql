CREATE TABLE "usage_debits" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"period_start" timestamp with time zone,
	"seq" integer DEFAULT 0 NOT NULL,
	"debited_cents" bigint DEFAULT 0 NOT NULL,
	"charged" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"carry_micros" bigint DEFAULT 0 NOT NULL,
	"charge_from" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- ---- hand-written ------------------------------------------------------------------------------------
-- Organisations that exist when usage debits begin are charged from now on: their usage before this release
-- was shown at list prices and never debited, and is not charged retroactively.
INSERT INTO "usage_debits" ("org_id", "charge_from")
SELECT "id", now() FROM "accounts" WHERE "account_type" = 'organization'
ON CONFLICT DO NOTHING;
