CREATE TABLE "task_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"task_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"outcome" text,
	"error" text,
	"room_id" text,
	"conversation_uuid" text,
	"message_id" integer,
	"call_id" text,
	"answered_by" text,
	"amd_decision_ms" integer,
	"duration_seconds" real
);
--> statement-breakpoint
CREATE TABLE "task_limits" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"limits" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"name" text NOT NULL,
	"channel" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"source" text DEFAULT 'csv' NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"error_rows" integer DEFAULT 0 NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_opt_outs" (
	"org_id" integer NOT NULL,
	"phone_number" text NOT NULL,
	"word" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_opt_outs_org_id_phone_number_pk" PRIMARY KEY("org_id","phone_number")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"list_id" integer,
	"agent_account_id" integer NOT NULL,
	"channel" text NOT NULL,
	"phone_number" text NOT NULL,
	"name" text,
	"email" text,
	"time_zone" text,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"message" text,
	"scheduled_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"outcome" text,
	"room_id" text,
	"conversation_uuid" text,
	"call_id" text,
	"answered_by" text,
	"amd_decision_ms" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "task_attempts" ADD CONSTRAINT "task_attempts_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_limits" ADD CONSTRAINT "task_limits_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_lists" ADD CONSTRAINT "task_lists_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_lists" ADD CONSTRAINT "task_lists_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_opt_outs" ADD CONSTRAINT "task_opt_outs_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_list_id_task_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."task_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "task_attempts_task_attempt_key" ON "task_attempts" USING btree ("task_id","attempt");--> statement-breakpoint
CREATE INDEX "task_attempts_org_started_idx" ON "task_attempts" USING btree ("org_id","started_at");--> statement-breakpoint
CREATE INDEX "task_lists_org_idx" ON "task_lists" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "tasks_org_created_idx" ON "tasks" USING btree ("org_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "tasks_org_list_idx" ON "tasks" USING btree ("org_id","list_id","state");--> statement-breakpoint
CREATE INDEX "tasks_org_state_idx" ON "tasks" USING btree ("org_id","state");--> statement-breakpoint
CREATE INDEX "tasks_org_phone_idx" ON "tasks" USING btree ("org_id","phone_number");--> statement-breakpoint
CREATE INDEX "tasks_org_conversation_idx" ON "tasks" USING btree ("org_id","conversation_uuid");--> statement-breakpoint
CREATE INDEX "tasks_due_idx" ON "tasks" USING btree ("org_id","next_attempt_at") WHERE state in ('queued', 'scheduled');