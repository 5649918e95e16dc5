import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import type { DatabaseHandle } from "../../db/client.ts";

/**
 * The log queries are built with Drizzle's `sql` template: every value (and every jsonb key, which is a
 * value too) travels as a parameter, column names as identifiers, and `sql.raw` holds only fixed SQL of
 * this module. A statement is compiled to text and parameters here and run through the driver underneath
 * Drizzle, so the fast paths stay (rows as arrays, JIT off for the big aggregates).
 */
export type SqlParam = string | number | boolean | null | readonly number[] | readonly string[];

/** The casts a parameter may carry: a closed list, so the cast text is fixed SQL. */
export type SqlCast = "int" | "int[]" | "bigint" | "float8" | "numeric" | "text" | "text[]" | "timestamptz";

/** A value as one parameter with an explicit cast, `$n::cast` (an array stays one array parameter). */
export function param(value: SqlParam, cast: SqlCast): SQL {
  return sql`${sql.param(value)}::${sql.raw(cast)}`;
}

/** A column (or alias) name as a quoted identifier, never SQL text. */
export function ident(name: string): SQL {
  return sql`${sql.identifier(name)}`;
}

/** Fragments joined with `separator` (fixed SQL such as ", " or " AND "). */
export function joined(parts: readonly SQL[], separator: string): SQL {
  return sql.join(parts as SQL[], sql.raw(separator));
}

const dialect = new PgDialect();

/** A statement as text with `$n` placeholders and its values. */
export function compile(query: SQL): { text: string; values: unknown[] } {
  const compiled = dialect.sqlToQuery(query);
  return { text: compiled.sql, values: compiled.params };
}

/**
 * A statement to run: built with the `sql` template, or (tests, fixed statements) a text whose values are
 * given apart.
 */
type Statement = SQL | string;

function textAndValues(query: Statement, values: readonly unknown[]): { text: string; values: unknown[] } {
  return typeof query === "string" ? { text: query, values: [...values] } : compile(query);
}

/** Rows as objects keyed by column name. */
export async function queryRows<T extends Record<string, unknown>>(
  database: DatabaseHandle,
  query: Statement,
  values: readonly SqlParam[] = [],
): Promise<T[]> {
  const statement = textAndValues(query, values);
  if (database.driver.kind === "pglite") {
    return (await database.driver.client.query<T>(statement.text, statement.values)).rows;
  }
  return (await database.driver.pool.query(statement.text, statement.values)).rows as T[];
}

/** Rows as arrays of column values, in select order (no object per row: the export's fast path). */
export async function queryArrays(database: DatabaseHandle, query: SQL): Promise<unknown[][]> {
  const { text, values } = compile(query);
  if (database.driver.kind === "pglite") {
    return (await database.driver.client.query<unknown[]>(text, values, { rowMode: "array" })).rows;
  }
  return (await database.driver.pool.query({ text, values, rowMode: "array" })).rows as unknown[][];
}

/**
 * {@link queryArrays} with PostgreSQL's JIT off for the statement: an aggregate with many FILTER clauses
 * costs enough to be JIT-compiled, and compiling takes longer (hundreds of ms) than running it. PGlite
 * has no JIT.
 */
export async function queryArraysWithoutJit(database: DatabaseHandle, query: SQL): Promise<unknown[][]> {
  if (database.driver.kind === "pglite") return queryArrays(database, query);
  const { text, values } = compile(query);
  const client = await database.driver.pool.connect();
  try {
    // One round trip for both (the simple protocol runs the two statements in turn).
    await client.query("BEGIN READ ONLY; SET LOCAL jit = off");
    const result = await client.query({ text, values, rowMode: "array" });
    await client.query("COMMIT");
    return result.rows as unknown[][];
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A parameter's value as a SQL literal: text by the driver's escapeLiteral, numbers only when finite. */
function literalOf(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return pg.escapeLiteral(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error("a number that is not finite");
    return String(value);
  }
  if (Array.isArray(value)) return `ARRAY[${value.map(literalOf).join(", ")}]`;
  throw new Error(`no literal for a parameter of type ${typeof value}`);
}

/**
 * A compiled statement with its parameters written in as literals, for the statements that take none
 * (`COPY (SELECT …) TO STDOUT`). Every value goes through {@link literalOf} (text by the driver's
 * `escapeLiteral`, never concatenated as it is) and stays in parentheses, so its cast (`$1::int` becomes
 * `(5)::int`) applies to it alone. Placeholders are found outside quoted literals and identifiers only.
 */
export function inlineParams(text: string, values: readonly unknown[]): string {
  let out = "";
  let at = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'") {
      // A literal: E'…' takes backslash escapes; both double a quote inside.
      const escapes = i > 0 && /[eE]/.test(text[i - 1] as string) && !/\w/.test(text[i - 2] ?? " ");
      i++;
      while (i < text.length) {
        if (escapes && text[i] === "\\") i += 2;
        else if (text[i] === "'" && text[i + 1] === "'") i += 2;
        else if (text[i] === "'") break;
        else i++;
      }
      i++;
    } else if (c === '"') {
      i = text.indexOf('"', i + 1);
      if (i < 0) throw new Error("an identifier without its closing quote");
      i++;
    } else if (c === "$" && /[0-9]/.test(text[i + 1] ?? "") && !/\w/.test(text[i - 1] ?? " ")) {
      let end = i + 1;
      while (/[0-9]/.test(text[end] ?? "")) end++;
      const index = Number(text.slice(i + 1, end)) - 1;
      if (index < 0 || index >= values.length) throw new Error(`no value for ${text.slice(i, end)}`);
      out += `${text.slice(at, i)}(${literalOf(values[index])})`;
      at = i = end;
    } else i++;
  }
  return out + text.slice(at);
}
