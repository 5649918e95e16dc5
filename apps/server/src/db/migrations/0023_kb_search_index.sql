CREATE TABLE "kb_lexemes" (
	"org_id" integer NOT NULL,
	"lexeme" text NOT NULL,
	"chunks" integer DEFAULT 0 NOT NULL,
	"lexemes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "kb_lexemes_org_id_lexeme_pk" PRIMARY KEY("org_id","lexeme")
);
--> statement-breakpoint
DROP INDEX "kb_chunks_tsv_idx";--> statement-breakpoint
-- Knowledge-base search (issue 19). btree_gin lets one GIN index hold org_id beside the tsvector, so a
-- word's passages are found inside the organisation instead of among every tenant's (contrib, as pg_trgm;
-- PGlite loads it too).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "kb_chunks_org_tsv_idx" ON "kb_chunks" USING gin ("org_id", "tsv");--> statement-breakpoint
-- An organisation's passages, shortest first: the best passages that hold every word of a query whose
-- words are all common are the shortest that hold them (see KnowledgeBaseRepository.search).
CREATE INDEX IF NOT EXISTS "kb_chunks_org_length_idx" ON "kb_chunks" USING btree ("org_id", length("tsv"));--> statement-breakpoint
-- Words of a query that no passage holds (a typo, another form of the word) are matched to the
-- organisation's lexemes by trigram similarity (pg_trgm, installed by 0022). On lower(lexeme) (lexemes are
-- lower case already): pg_trgm's GIN also answers "=", and the planner would take it over the primary key
-- for the look-up of a query's words, ten times slower.
CREATE INDEX IF NOT EXISTS "kb_lexemes_trgm_idx" ON "kb_lexemes" USING gin ("org_id", lower("lexeme") gin_trgm_ops);--> statement-breakpoint
-- kb_lexemes follows kb_chunks, whichever statement changes them (cascades of deleted documents, knowledge
-- bases and organisations too). One advisory lock per organisation, taken before any kb_lexemes row, keeps
-- two writers of the same organisation from deadlocking on its lexemes.
CREATE FUNCTION kb_lexemes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM pg_advisory_xact_lock(7274019, o.org_id)
      FROM (SELECT DISTINCT org_id FROM old_chunks ORDER BY org_id) o;
    UPDATE kb_lexemes l SET chunks = l.chunks - g.n, lexemes = l.lexemes - g.len
      FROM (
        SELECT s.org_id, s.lexeme, count(*)::int AS n, sum(s.len)::bigint AS len FROM (
          SELECT org_id, unnest(tsvector_to_array(tsv)) AS lexeme, 0 AS len FROM old_chunks
          UNION ALL
          SELECT org_id, '', length(tsv) FROM old_chunks
        ) s GROUP BY s.org_id, s.lexeme
      ) g
      WHERE l.org_id = g.org_id AND l.lexeme = g.lexeme;
    DELETE FROM kb_lexemes l
      WHERE l.chunks <= 0 AND (l.org_id, l.lexeme) IN (
        SELECT org_id, unnest(tsvector_to_array(tsv)) FROM old_chunks
        UNION SELECT org_id, '' FROM old_chunks
      );
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_advisory_xact_lock(7274019, o.org_id)
      FROM (SELECT DISTINCT org_id FROM new_chunks ORDER BY org_id) o;
    INSERT INTO kb_lexemes AS l (org_id, lexeme, chunks, lexemes)
      SELECT s.org_id, s.lexeme, count(*)::int, sum(s.len)::bigint FROM (
        SELECT org_id, unnest(tsvector_to_array(tsv)) AS lexeme, 0 AS len FROM new_chunks
        UNION ALL
        SELECT org_id, '', length(tsv) FROM new_chunks
      ) s GROUP BY s.org_id, s.lexeme ORDER BY s.org_id, s.lexeme
      ON CONFLICT (org_id, lexeme)
      DO UPDATE SET chunks = l.chunks + excluded.chunks, lexemes = l.lexemes + excluded.lexemes;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER kb_chunks_lexemes_insert AFTER INSERT ON kb_chunks
  REFERENCING NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION kb_lexemes_count();--> statement-breakpoint
CREATE TRIGGER kb_chunks_lexemes_update AFTER UPDATE ON kb_chunks
  REFERENCING OLD TABLE AS old_chunks NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION kb_lexemes_count();--> statement-breakpoint
CREATE TRIGGER kb_chunks_lexemes_delete AFTER DELETE ON kb_chunks
  REFERENCING OLD TABLE AS old_chunks FOR EACH STATEMENT EXECUTE FUNCTION kb_lexemes_count();--> statement-breakpoint
INSERT INTO kb_lexemes (org_id, lexeme, chunks, lexemes)
  SELECT s.org_id, s.lexeme, count(*)::int, sum(s.len)::bigint FROM (
    SELECT org_id, unnest(tsvector_to_array(tsv)) AS lexeme, 0 AS len FROM kb_chunks
    UNION ALL
    SELECT org_id, '', length(tsv) FROM kb_chunks
  ) s GROUP BY s.org_id, s.lexeme;
