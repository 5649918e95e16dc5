import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * `(column || patch) - key - key ...`: merges top-level keys into a jsonb column and removes others, in
 * one statement, so concurrent changes of different keys do not overwrite each other.
 */
export function jsonbMerge(
  column: SQLWrapper,
  patch: Record<string, unknown>,
  remove: readonly string[] = [],
): SQL {
  let expression = sql`(coalesce(${column}, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb)`;
  for (const key of remove) expression = sql`(${expression} - ${key}::text)`;
  return expression;
}

/** A LIKE pattern that finds `text` anywhere, its own % _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
