import type { DatabaseHandle } from "../../db/client.ts";

/**
 * Parameterised SQL through the driver underneath Drizzle: the log queries are built from core's filter
 * translator, whose text carries `$n` placeholders and a values list. Values never enter the text.
 */
export type SqlParam = string | number | boolean | null | readonly number[] | readonly string[];

/** Rows as objects keyed by column name. */
export async function queryRows<T extends Record<string, unknown>>(
  database: DatabaseHandle,
  text: string,
  values: readonly SqlParam[] = [],
): Promise<T[]> {
  if (database.driver.kind === "pglite") {
    return (await database.driver.client.query<T>(text, values as unknown[])).rows;
  }
  return (await database.driver.pool.query(text, values as unknown[])).rows as T[];
}

/** Rows as arrays of column values, in select order (no object per row: the export's fast path). */
export async function queryArrays(
  database: DatabaseHandle,
  text: string,
  values: readonly SqlParam[] = [],
): Promise<unknown[][]> {
  if (database.driver.kind === "pglite") {
    return (await database.driver.client.query<unknown[]>(text, values as unknown[], { rowMode: "array" }))
      .rows;
  }
  return (await database.driver.pool.query({ text, values: values as unknown[], rowMode: "array" }))
    .rows as unknown[][];
}

/** Collects parameters while a statement is built: `add(value)` answers its placeholder. */
export class Params {
  readonly values: SqlParam[] = [];
  add(value: SqlParam, cast?: string): string {
    this.values.push(value);
    return `$${this.values.length}${cast ? `::${cast}` : ""}`;
  }
  get next(): number {
    return this.values.length + 1;
  }
}

/**
 * {@link queryArrays} with PostgreSQL's JIT off for the statement: an aggregate with many FILTER clauses
 * costs enough to be JIT-compiled, and compiling takes longer (hundreds of ms) than running it. PGlite
 * has no JIT.
 */
export async function queryArraysWithoutJit(
  database: DatabaseHandle,
  text: string,
  values: readonly SqlParam[] = [],
): Promise<unknown[][]> {
  if (database.driver.kind === "pglite") return queryArrays(database, text, values);
  const client = await database.driver.pool.connect();
  try {
    await client.query("BEGIN READ ONLY");
    await client.query("SET LOCAL jit = off");
    const result = await client.query({ text, values: values as unknown[], rowMode: "array" });
    await client.query("COMMIT");
    return result.rows as unknown[][];
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
