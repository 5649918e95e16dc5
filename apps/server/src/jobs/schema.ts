import { createRequire } from "node:module";
import PgBoss from "pg-boss";
import type { DatabaseHandle } from "../db/client.ts";
import { executorOf } from "./sql.ts";

/** The PostgreSQL schema pg-boss keeps its queues, jobs and archive in (tables `pgboss.job`, `pgboss.archive`). */
export const JOB_SCHEMA = "pgboss";

/** The version of pg-boss's own tables this pg-boss release installs (part of the test template's key). */
export const JOB_SCHEMA_VERSION: number = createRequire(import.meta.url)("pg-boss/version.json").schema;

/**
 * Installs pg-boss's tables, or brings them up to this release's version (pg-boss's own migrations, under
 * its advisory lock, so concurrent instances are safe). Run after the app's migrations (db/migrate.ts).
 */
export async function installJobSchema(handle: DatabaseHandle): Promise<void> {
  const boss = new PgBoss({
    db: executorOf(handle),
    schema: JOB_SCHEMA,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}
