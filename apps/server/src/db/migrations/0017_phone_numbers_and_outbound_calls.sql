CREATE TABLE "caller_id_verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"number" text NOT NULL,
	"code_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"to_number" text NOT NULL,
	"from_number" text,
	"task_id" text,
	"route" text NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"answered_by" text,
	"amd_decision_ms" integer,
	"conversation_uuid" text,
	"room_id" text,
	"duration_seconds" integer,
	"error" text,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "phone_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer,
	"number" text NOT NULL,
	"country" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"locality" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"provider_id" text,
	"byo_method" text,
	"carrier" text,
	"forwarding_verified_at" timestamp with time zone,
	"capabilities" jsonb DEFAULT '{"voice":true,"sms":true}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_callees" (
	"org_id" integer NOT NULL,
	"number" text NOT NULL,
	"behaviour" text NOT NULL,
	"says" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "caller_id_verifications" ADD CONSTRAINT "caller_id_verifications_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_calls" ADD CONSTRAINT "outbound_calls_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_calls" ADD CONSTRAINT "outbound_calls_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_callees" ADD CONSTRAINT "sandbox_callees_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "caller_id_verifications_org_number_key" ON "caller_id_verifications" USING btree ("org_id","number");--> statement-breakpoint
CREATE INDEX "outbound_calls_org_idx" ON "outbound_calls" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "outbound_calls_live_idx" ON "outbound_calls" USING btree ("org_id") WHERE "outbound_calls"."status" <> 'completed';--> statement-breakpoint
CREATE INDEX "phone_numbers_org_idx" ON "phone_numbers" USING btree ("org_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_live_number_key" ON "phone_numbers" USING btree ("number") WHERE "phone_numbers"."released_at" is null;--> statement-breakpoint
CREATE INDEX "phone_numbers_agent_idx" ON "phone_numbers" USING btree ("agent_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_callees_key" ON "sandbox_callees" USING btree ("org_id","number");