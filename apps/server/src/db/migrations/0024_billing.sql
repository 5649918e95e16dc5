CREATE TABLE "billing_portal_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"return_url" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_offers" (
	"owner_account_id" integer PRIMARY KEY NOT NULL,
	"product_plan_id" integer NOT NULL,
	"month_cents" bigint,
	"year_cents" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"month_cents" bigint NOT NULL,
	"year_cents" bigint NOT NULL,
	"premium" boolean DEFAULT false NOT NULL,
	"product_items" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"provider_session_id" text,
	"org_id" integer NOT NULL,
	"product_plan_id" integer NOT NULL,
	"term" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"url" text NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"last_error" text,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_id" integer NOT NULL,
	"product_plan_id" integer NOT NULL,
	"term" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"provider" text NOT NULL,
	"provider_subscription_id" text,
	"provider_customer_id" text,
	"checkout_id" text NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"canceled_at" timestamp with time zone,
	"cancel_reason" text,
	"cancel_details" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_offers" ADD CONSTRAINT "plan_offers_product_plan_id_product_plans_id_fk" FOREIGN KEY ("product_plan_id") REFERENCES "public"."product_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_checkouts" ADD CONSTRAINT "subscription_checkouts_product_plan_id_product_plans_id_fk" FOREIGN KEY ("product_plan_id") REFERENCES "public"."product_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_product_plan_id_product_plans_id_fk" FOREIGN KEY ("product_plan_id") REFERENCES "public"."product_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_portal_sessions_org_idx" ON "billing_portal_sessions" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "subscription_checkouts_org_idx" ON "subscription_checkouts" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_org_idx" ON "subscriptions" USING btree ("org_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_active_key" ON "subscriptions" USING btree ("org_id") WHERE "subscriptions"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_checkout_key" ON "subscriptions" USING btree ("checkout_id");--> statement-breakpoint
-- The product catalogue: the plans every organisation can choose (partners and resellers may offer one at
-- their own prices through plan_offers). Prices in cents; tiers price each unit from quantityMin up to
-- quantityMax (no quantityMax: every unit above).
INSERT INTO "product_plans" ("name", "description", "month_cents", "year_cents", "premium", "sort_order", "product_items") VALUES
('Free', 'Build and test agents, answer text messages and a few calls.', 0, 0, false, 1, '{
  "voice": {"type": "metered", "unit": "minute", "tiers": [{"quantityMin": 0, "quantityMax": 30, "unitPriceCents": 0}, {"quantityMin": 31, "unitPriceCents": 20}]},
  "outbound-message": {"type": "metered", "unit": "message", "tiers": [{"quantityMin": 0, "quantityMax": 50, "unitPriceCents": 0}, {"quantityMin": 51, "unitPriceCents": 3}]},
  "inbound-message": {"type": "included", "unit": "message", "tiers": [{"quantityMin": 0, "unitPriceCents": 0}]},
  "tokens": {"type": "metered", "unit": "1,000 tokens", "tiers": [{"quantityMin": 0, "quantityMax": 200, "unitPriceCents": 0}, {"quantityMin": 201, "unitPriceCents": 1}]},
  "number": {"type": "feature", "unit": "phone number", "tiers": [{"quantityMin": 0, "quantityMax": 0, "unitPriceCents": 0}]}
}'::jsonb),
('Pro', 'Premium: start conversations from the inbox, give agents their own phone numbers, more included minutes.', 4900, 49000, true, 2, '{
  "voice": {"type": "metered", "unit": "minute", "tiers": [{"quantityMin": 0, "quantityMax": 500, "unitPriceCents": 0}, {"quantityMin": 501, "quantityMax": 5000, "unitPriceCents": 12}, {"quantityMin": 5001, "unitPriceCents": 9}]},
  "outbound-message": {"type": "metered", "unit": "message", "tiers": [{"quantityMin": 0, "quantityMax": 1000, "unitPriceCents": 0}, {"quantityMin": 1001, "unitPriceCents": 2}]},
  "inbound-message": {"type": "included", "unit": "message", "tiers": [{"quantityMin": 0, "unitPriceCents": 0}]},
  "tokens": {"type": "metered", "unit": "1,000 tokens", "tiers": [{"quantityMin": 0, "quantityMax": 5000, "unitPriceCents": 0}, {"quantityMin": 5001, "unitPriceCents": 1}]},
  "number": {"type": "feature", "unit": "phone number", "tiers": [{"quantityMin": 0, "quantityMax": 1, "unitPriceCents": 0}, {"quantityMin": 2, "unitPriceCents": 300}]}
}'::jsonb),
('Business', 'Premium for busy teams: the most included minutes and messages and the lowest rates above them.', 19900, 199000, true, 3, '{
  "voice": {"type": "metered", "unit": "minute", "tiers": [{"quantityMin": 0, "quantityMax": 3000, "unitPriceCents": 0}, {"quantityMin": 3001, "quantityMax": 20000, "unitPriceCents": 9}, {"quantityMin": 20001, "unitPriceCents": 7}]},
  "outbound-message": {"type": "metered", "unit": "message", "tiers": [{"quantityMin": 0, "quantityMax": 10000, "unitPriceCents": 0}, {"quantityMin": 10001, "unitPriceCents": 1}]},
  "inbound-message": {"type": "included", "unit": "message", "tiers": [{"quantityMin": 0, "unitPriceCents": 0}]},
  "tokens": {"type": "metered", "unit": "1,000 tokens", "tiers": [{"quantityMin": 0, "quantityMax": 50000, "unitPriceCents": 0}, {"quantityMin": 50001, "unitPriceCents": 1}]},
  "number": {"type": "feature", "unit": "phone number", "tiers": [{"quantityMin": 0, "quantityMax": 5, "unitPriceCents": 0}, {"quantityMin": 6, "unitPriceCents": 250}]}
}'::jsonb);
