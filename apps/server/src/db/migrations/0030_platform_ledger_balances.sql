-- The platform's ledger accounts (owner null) keep their balance like the owners' accounts now: each is
-- set to the sum of its postings, which every posting from here on keeps it equal to.
UPDATE "ledger_accounts" AS "a"
SET "balance" = coalesce((SELECT sum("p"."amount") FROM "ledger_postings" AS "p" WHERE "p"."ledger_account_id" = "a"."id"), 0)
WHERE "a"."owner_account_id" IS NULL;
