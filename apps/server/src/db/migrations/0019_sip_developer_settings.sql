CREATE TABLE "sip_allowlist" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"ip" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sip_capture_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" integer,
	"call_id" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"direction" text NOT NULL,
	"transport" text NOT NULL,
	"local_address" text NOT NULL,
	"local_port" integer NOT NULL,
	"remote_address" text NOT NULL,
	"remote_port" integer NOT NULL,
	"first_line" text NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sip_outbound_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"name" text NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"transport" text NOT NULL,
	"username" text,
	"password_encrypted" text,
	"prefixes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sip_registrations" (
	"org_id" integer PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"transport" text NOT NULL,
	"username" text NOT NULL,
	"auth_username" text,
	"domain" text,
	"password_encrypted" text,
	"expires" integer NOT NULL,
	"state" text NOT NULL,
	"last_error" text,
	"registered_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sip_allowlist" ADD CONSTRAINT "sip_allowlist_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_capture_messages" ADD CONSTRAINT "sip_capture_messages_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_outbound_routes" ADD CONSTRAINT "sip_outbound_routes_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_registrations" ADD CONSTRAINT "sip_registrations_org_id_accounts_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_registrations" ADD CONSTRAINT "sip_registrations_agent_id_accounts_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sip_allowlist_org_ip_key" ON "sip_allowlist" USING btree ("org_id","ip");--> statement-breakpoint
CREATE INDEX "sip_capture_messages_org_call_idx" ON "sip_capture_messages" USING btree ("org_id","call_id","id");--> statement-breakpoint
CREATE INDEX "sip_capture_messages_at_idx" ON "sip_capture_messages" USING btree ("at");--> statement-breakpoint
CREATE INDEX "sip_outbound_routes_org_idx" ON "sip_outbound_routes" USING btree ("org_id","id");