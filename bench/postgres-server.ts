import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openPglite, openPostgres } from "../apps/server/src/db/client.ts";

/** Whether the PostgreSQL server at `serverUrl` has a database called `name` (for BENCH_REUSE). */
export async function databaseExists(serverUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

/**
 * A database of the bench's own: with BENCH_DATABASE_URL (a PostgreSQL server) a new database named
 * `<prefix>_<random>` that `drop()` removes, else the embedded PGlite (`drop()` does nothing).
 */
export async function benchDatabase(
  prefix: string,
): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) return { database: await openPglite(), drop: async () => {} };
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    database: await openPostgres(url.toString()),
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}
