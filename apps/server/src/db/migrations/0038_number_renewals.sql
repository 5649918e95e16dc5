ALTER TABLE "phone_numbers" ADD COLUMN "paid_through" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "past_due_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "past_due_cents" integer;--> statement-breakpoint
CREATE INDEX "phone_numbers_renewal_idx" ON "phone_numbers" USING btree ("paid_through") WHERE "phone_numbers"."released_at" is null;--> statement-breakpoint
-- Numbers held before renewals: their next renewal is the first day-of-month anniversary of being taken that is still ahead (no month before this release is charged).
UPDATE "phone_numbers" SET "paid_through" = "created_at" + ((extract(year from age(now(), "created_at"))::int * 12 + extract(month from age(now(), "created_at"))::int + 1) * interval '1 month');
