-- Search finds the people of outbound tasks by any part of their name, number or e-mail (issue 32 item 15),
-- through a trigram index like the contacts' (0022).
CREATE INDEX IF NOT EXISTS "tasks_search_trgm_idx" ON "tasks" USING gin ((coalesce("name", '') || ' ' || "phone_number" || ' ' || coalesce("email", '')) gin_trgm_ops);
