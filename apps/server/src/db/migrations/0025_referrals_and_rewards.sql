CREATE TABLE "referral_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"referrer_account_id" integer NOT NULL,
	"referred_account_id" integer NOT NULL,
	"payment_transaction_id" bigint NOT NULL,
	"payment_kind" text NOT NULL,
	"payment_cents" bigint NOT NULL,
	"basis_points" integer NOT NULL,
	"reward_cents" bigint NOT NULL,
	"claim_transaction_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	CONSTRAINT "referral_rewards_positive" CHECK ("referral_rewards"."reward_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"referred_account_id" integer PRIMARY KEY NOT NULL,
	"referrer_account_id" integer NOT NULL,
	"target" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_payment_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("payment_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_claim_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("claim_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "referral_rewards_payment_key" ON "referral_rewards" USING btree ("payment_transaction_id");--> statement-breakpoint
CREATE INDEX "referral_rewards_referrer_idx" ON "referral_rewards" USING btree ("referrer_account_id","id");--> statement-breakpoint
CREATE INDEX "referrals_referrer_idx" ON "referrals" USING btree ("referrer_account_id","created_at");