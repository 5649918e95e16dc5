CREATE TABLE "conversation_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"account_id" integer,
	"account_name" text,
	"agent_id" integer,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"duration" integer DEFAULT 0 NOT NULL,
	"from_number" text,
	"to_number" text,
	"cnam" text,
	"room_id" text,
	"direction" text,
	"transfer" text DEFAULT '0' NOT NULL,
	"call_id" text,
	"uuid" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"room_id" text NOT NULL,
	"conversation_uuid" text,
	"role" text NOT NULL,
	"sender_user_id" integer,
	"sender_address" text,
	"text" text DEFAULT '' NOT NULL,
	"media" jsonb,
	"tool_calls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tool_results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'complete' NOT NULL,
	"error" text,
	"model" text,
	"input_tokens" integer,
	"output_tokens" integer,
	"first_token_ms" integer,
	"duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"uuid" text PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"room_id" text NOT NULL,
	"agent_account_id" integer NOT NULL,
	"channel" text NOT NULL,
	"stage" text NOT NULL,
	"direction" text DEFAULT 'inbound' NOT NULL,
	"from_address" text,
	"to_address" text,
	"call_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"model" text,
	"collected" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"outcome" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "room_participants" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"room_id" text NOT NULL,
	"kind" text NOT NULL,
	"account_id" integer,
	"user_id" integer,
	"address" text,
	"display_name" text,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"channel" text NOT NULL,
	"kind" text DEFAULT 'live' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"ai_agent_enabled" boolean DEFAULT true NOT NULL,
	"external_address" text,
	"title" text,
	"last_message_text" text,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_model_settings" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"base_url" text,
	"model" text,
	"api_key_encrypted" text,
	"api_key_hint" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"name" text NOT NULL,
	"phone_number" text,
	"email" text,
	"notes" text,
	"status" text DEFAULT 'booked' NOT NULL,
	"source" text DEFAULT 'agent' NOT NULL,
	"room_id" text,
	"conversation_uuid" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "runtime_usage" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer,
	"room_id" text,
	"conversation_uuid" text,
	"channel" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"total_tokens" integer DEFAULT 0 NOT NULL,
	"steps" integer DEFAULT 0 NOT NULL,
	"messages_in" integer DEFAULT 0 NOT NULL,
	"messages_out" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_participants" ADD CONSTRAINT "room_participants_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_model_settings" ADD CONSTRAINT "org_model_settings_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_bookings" ADD CONSTRAINT "schedule_bookings_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_logs_uuid_key" ON "conversation_logs" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "conversation_logs_org_time_idx" ON "conversation_logs" USING btree ("org_id","timestamp");--> statement-breakpoint
CREATE INDEX "conversation_logs_org_agent_idx" ON "conversation_logs" USING btree ("org_id","agent_id","timestamp");--> statement-breakpoint
CREATE INDEX "conversation_messages_room_idx" ON "conversation_messages" USING btree ("org_id","room_id","id");--> statement-breakpoint
CREATE INDEX "conversation_messages_conversation_idx" ON "conversation_messages" USING btree ("conversation_uuid","id");--> statement-breakpoint
CREATE INDEX "conversations_org_room_idx" ON "conversations" USING btree ("org_id","room_id","started_at");--> statement-breakpoint
CREATE INDEX "conversations_org_agent_idx" ON "conversations" USING btree ("org_id","agent_account_id","started_at");--> statement-breakpoint
CREATE INDEX "room_participants_room_idx" ON "room_participants" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "room_participants_org_idx" ON "room_participants" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "rooms_org_last_idx" ON "rooms" USING btree ("org_id","last_message_at");--> statement-breakpoint
CREATE INDEX "rooms_org_agent_idx" ON "rooms" USING btree ("org_id","agent_account_id","last_message_at");--> statement-breakpoint
CREATE INDEX "rooms_org_address_idx" ON "rooms" USING btree ("org_id","external_address");--> statement-breakpoint
CREATE INDEX "schedule_bookings_org_agent_idx" ON "schedule_bookings" USING btree ("org_id","agent_account_id","start_at");--> statement-breakpoint
CREATE INDEX "runtime_usage_org_time_idx" ON "runtime_usage" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "runtime_usage_org_agent_idx" ON "runtime_usage" USING btree ("org_id","agent_account_id","created_at");