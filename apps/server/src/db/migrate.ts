import path from "node:path";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { DatabaseHandle } from "./client.ts";

export const migrationsFolder = path.resolve(import.meta.dirname, "migrations");

/** Arbitrary constant key: only one server instance migrates a PostgreSQL database at a time. */
const MIGRATION_LOCK_KEY = 7_274_001;

/**
 * Applies the committed SQL migrations that have not run yet. pg-boss's own tables are the job runner's
 * (jobs/schema.ts): whoever runs jobs on the database installs them after this.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.driver.kind === "pglite") {
    await migratePglite(drizzlePglite({ client: handle.driver.client }), { migrationsFolder });
    return;
  }
  const connection = await handle.driver.pool.connect();
  try {
    await connection.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrateNodePg(drizzleNodePg({ client: connection }), { migrationsFolder });
  } finally {
    await connection.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    connection.release();
  }
}
