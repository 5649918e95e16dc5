CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"provider_session_id" text,
	"owner_account_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"product_plan_id" integer,
	"term" text,
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
CREATE TABLE "ledger_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_account_id" integer,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"min_balance" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_floor" CHECK ("ledger_accounts"."min_balance" IS NULL OR "ledger_accounts"."balance" >= "ledger_accounts"."min_balance")
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"ledger_account_id" integer NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_postings_nonzero" CHECK ("ledger_postings"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"owner_account_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lightning_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_account_id" integer NOT NULL,
	"payment_request" text NOT NULL,
	"payment_hash" text NOT NULL,
	"amount_sats" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_lightning_invoices" (
	"payment_hash" text PRIMARY KEY NOT NULL,
	"preimage" text NOT NULL,
	"payment_request" text NOT NULL,
	"amount_sats" bigint NOT NULL,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_account_id" integer NOT NULL,
	"method" text NOT NULL,
	"address" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"amount_sats" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_reason" text,
	"external_id" text,
	"hold_transaction_id" bigint NOT NULL,
	"requested_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_ledger_account_id_ledger_accounts_id_fk" FOREIGN KEY ("ledger_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_sessions_owner_idx" ON "checkout_sessions" USING btree ("owner_account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_provider_key" ON "checkout_sessions" USING btree ("provider_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_owner_kind_key" ON "ledger_accounts" USING btree (coalesce("owner_account_id", 0),"kind","currency");--> statement-breakpoint
CREATE INDEX "ledger_postings_account_idx" ON "ledger_postings" USING btree ("ledger_account_id","id");--> statement-breakpoint
CREATE INDEX "ledger_postings_transaction_idx" ON "ledger_postings" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_idempotency_key" ON "ledger_transactions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_owner_idx" ON "ledger_transactions" USING btree ("owner_account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "lightning_invoices_hash_key" ON "lightning_invoices" USING btree ("payment_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "lightning_invoices_pending_key" ON "lightning_invoices" USING btree ("owner_account_id") WHERE "lightning_invoices"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "wallet_withdrawals_owner_idx" ON "wallet_withdrawals" USING btree ("owner_account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_withdrawals_hold_key" ON "wallet_withdrawals" USING btree ("hold_transaction_id");--> statement-breakpoint
-- The ledger is append-only: postings and transactions are never changed or removed.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON "ledger_postings"
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
--> statement-breakpoint
-- Every transaction sums to zero per currency, checked at commit (after all its postings are in).
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced text;
BEGIN
  SELECT currency INTO unbalanced FROM "ledger_postings"
    WHERE transaction_id = NEW.transaction_id GROUP BY currency HAVING sum(amount) <> 0 LIMIT 1;
  IF unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not sum to zero in %', NEW.transaction_id, unbalanced
      USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_postings_balanced AFTER INSERT ON "ledger_postings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();
