CREATE TABLE "calendar_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"provider" text NOT NULL,
	"credentials_encrypted" text NOT NULL,
	"external_account" text,
	"main_calendar_id" text,
	"main_calendar_name" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'connected' NOT NULL,
	"broken_reason" text,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_app_data" (
	"account_id" integer NOT NULL,
	"slug" text NOT NULL,
	"data" jsonb NOT NULL,
	"secret_encrypted" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_app_data_account_id_slug_pk" PRIMARY KEY("account_id","slug")
);
--> statement-breakpoint
CREATE TABLE "sandbox_calendar_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"owner" text NOT NULL,
	"calendar_id" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"attendee_name" text,
	"attendee_email" text,
	"status" text DEFAULT 'confirmed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_bookings" ADD COLUMN "calendar_provider" text;--> statement-breakpoint
ALTER TABLE "schedule_bookings" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_app_data" ADD CONSTRAINT "integration_app_data_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_connections_account_provider_idx" ON "calendar_connections" USING btree ("account_id","provider");--> statement-breakpoint
CREATE INDEX "sandbox_calendar_events_owner_idx" ON "sandbox_calendar_events" USING btree ("provider","owner","calendar_id","start_at");