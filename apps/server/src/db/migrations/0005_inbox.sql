CREATE TABLE "blocked_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"address" text NOT NULL,
	"blocked_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carrier_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"direction" text NOT NULL,
	"org_id" integer,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text NOT NULL,
	"external_id" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_addresses" (
	"org_id" integer NOT NULL,
	"address" text NOT NULL,
	"contact_id" integer NOT NULL,
	CONSTRAINT "contact_addresses_org_id_address_contact_id_pk" PRIMARY KEY("org_id","address","contact_id")
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "external_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"address" text NOT NULL,
	"kind" text NOT NULL,
	"username" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_reactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"room_id" text NOT NULL,
	"message_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reaction" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "room_reads" (
	"room_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	"last_read_message_id" integer DEFAULT 0 NOT NULL,
	"marked_unread" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "room_reads_room_id_user_id_pk" PRIMARY KEY("room_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "carrier_message_id" text;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "folder" text DEFAULT 'priority' NOT NULL;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "rating" integer;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "last_inbound_message_id" integer;--> statement-breakpoint
ALTER TABLE "contact_addresses" ADD CONSTRAINT "contact_addresses_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_message_id_conversation_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."conversation_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_reads" ADD CONSTRAINT "room_reads_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blocked_addresses_key" ON "blocked_addresses" USING btree ("org_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_messages_external_key" ON "carrier_messages" USING btree ("provider","external_id");--> statement-breakpoint
CREATE INDEX "carrier_messages_to_idx" ON "carrier_messages" USING btree ("to_address","id");--> statement-breakpoint
CREATE INDEX "carrier_messages_from_idx" ON "carrier_messages" USING btree ("from_address","id");--> statement-breakpoint
CREATE INDEX "contact_addresses_contact_idx" ON "contact_addresses" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "contacts_org_name_idx" ON "contacts" USING btree ("org_id","display_name");--> statement-breakpoint
CREATE UNIQUE INDEX "external_profiles_key" ON "external_profiles" USING btree ("org_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "external_profiles_username_key" ON "external_profiles" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "message_reactions_key" ON "message_reactions" USING btree ("message_id","user_id","reaction");--> statement-breakpoint
CREATE INDEX "message_reactions_room_idx" ON "message_reactions" USING btree ("org_id","room_id");--> statement-breakpoint
CREATE INDEX "room_reads_org_user_idx" ON "room_reads" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "conversation_messages_org_idx" ON "conversation_messages" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "rooms_inbox_idx" ON "rooms" USING btree ("org_id","folder","last_message_at" DESC NULLS LAST,"id");