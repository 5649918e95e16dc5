CREATE TABLE "agent_test_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"scenario_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"config_hash" text NOT NULL,
	"verdict" text NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_test_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"revision" integer NOT NULL,
	"config_hash" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agent_test_scenarios" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"agent_account_id" integer NOT NULL,
	"name" text NOT NULL,
	"persona" text DEFAULT '' NOT NULL,
	"lines" jsonb NOT NULL,
	"checks" jsonb NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_test_results" ADD CONSTRAINT "agent_test_results_run_id_agent_test_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."agent_test_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_test_results" ADD CONSTRAINT "agent_test_results_scenario_id_agent_test_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."agent_test_scenarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_test_runs" ADD CONSTRAINT "agent_test_runs_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_test_scenarios" ADD CONSTRAINT "agent_test_scenarios_agent_account_id_accounts_id_fk" FOREIGN KEY ("agent_account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_test_results_org_idx" ON "agent_test_results" USING btree ("org_id","run_id");--> statement-breakpoint
CREATE INDEX "agent_test_results_scenario_idx" ON "agent_test_results" USING btree ("scenario_id","config_hash");--> statement-breakpoint
CREATE INDEX "agent_test_runs_org_idx" ON "agent_test_runs" USING btree ("org_id","agent_account_id","started_at");--> statement-breakpoint
CREATE INDEX "agent_test_scenarios_org_idx" ON "agent_test_scenarios" USING btree ("org_id","agent_account_id");