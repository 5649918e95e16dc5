import type { Database, DatabaseHandle } from "../db/client.ts";

/** What pg-boss runs its statements through (its `db` option): one statement with values, or a script. */
export type SqlExecutor = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
};

type Result = { rows: Record<string, unknown>[] };
const lastOf = (results: Result | Result[]): Result =>
  Array.isArray(results) ? (results.at(-1) ?? { rows: [] }) : results;

/**
 * pg-boss over the app's own database handle, so jobs live on the one system of record.
 *
 * A statement with values runs as it is. A script without values (pg-boss's schema, its maintenance:
 * `BEGIN; ...; COMMIT;`) runs so that a failure rolls back before anything else may use the connection:
 * on PGlite inside `transaction()` (which holds the one connection until it has rolled back; the script's
 * own BEGIN/COMMIT only nest in it), on a PostgreSQL server on one pooled connection that is rolled back on
 * error before it goes back to the pool. Left as it was, a failed script would leave the connection in an
 * aborted transaction and every later statement of the app on it would fail.
 */
export function executorOf(handle: DatabaseHandle): SqlExecutor {
  const { driver } = handle;
  if (driver.kind === "pglite") {
    const { client } = driver;
    return {
      async executeSql(text, values) {
        if (values && values.length > 0) return (await client.query(text, values)) as Result;
        return client.transaction(async (tx) => lastOf((await tx.exec(text)) as Result[]));
      },
    };
  }
  const { pool } = driver;
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return (await pool.query(text, values)) as Result;
      const connection = await pool.connect();
      try {
        return lastOf((await connection.query(text)) as unknown as Result | Result[]);
      } catch (error) {
        await connection.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
  };
}

/**
 * pg-boss inside a Drizzle transaction (`db.transaction(async (tx) => ...)`): a job sent through it is
 * committed or rolled back with the rows written beside it. Drizzle's transaction keeps its connection
 * (a pooled client, or PGlite's transaction) on its session.
 */
export function transactionExecutor(tx: Database): SqlExecutor {
  const { session } = tx as unknown as { session?: { client?: unknown } };
  const client = session?.client as { query(text: string, values?: unknown[]): Promise<unknown> } | undefined;
  if (!client || typeof client.query !== "function")
    throw new Error("transactionExecutor needs a Drizzle transaction of the node-postgres or PGlite driver");
  return {
    async executeSql(text, values) {
      return lastOf((await client.query(text, values ?? [])) as Result | Result[]);
    },
  };
}
