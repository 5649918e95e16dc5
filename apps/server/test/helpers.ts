import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { buildApp } from "../src/app.ts";
import { type Config, loadConfig } from "../src/config.ts";
import { type DatabaseHandle, openPglite, openPostgres } from "../src/db/client.ts";
import { loadPgliteTemplate, postgresTemplateName, withDatabase } from "./template-database.ts";

/**
 * A fresh, migrated database of its own for one test file: PGlite loaded from the template dump, or a
 * database created from the template on the PostgreSQL server of DATABASE_URL (dropped when closed).
 */
export async function createTestDatabase(
  options: Parameters<typeof openPostgres>[1] = {},
): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openPglite({ loadDataDir: await loadPgliteTemplate() });
  const name = `sb_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${postgresTemplateName()}"`);
  await admin.end();
  const handle = await openPostgres(withDatabase(serverUrl, name), options);
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

export function testConfig(env: Record<string, string> = {}): Config {
  // Tests read sign-in codes from the dev outbox, which production refuses.
  const outbox = env.NODE_ENV === "production" ? {} : { DEV_OUTBOX: "true" };
  return loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: ".tmp/unused", ...outbox, ...env });
}

/** Collects log lines so a test can read what the server wrote. */
export function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      callback();
    },
  });
  return { stream, lines, text: () => lines.join("\n") };
}

export async function buildTestApp(
  env: Record<string, string> = {},
  options: { logDestination?: Writable } = {},
): Promise<FastifyInstance> {
  const database = await createTestDatabase();
  return buildApp(testConfig(env), { database, ...options });
}

/**
 * One database that outlives the apps built on it (a restart, or two instances at once): a PGlite data
 * directory loaded from the migrated template and reopened by the next app, or a database created from the
 * template on the PostgreSQL server of DATABASE_URL. `drop` removes it.
 */
export async function createSharedTestDatabase(): Promise<{
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
  /** What a server process started on this database needs in its environment (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
}> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = await mkdtemp(path.join(os.tmpdir(), "sb-shared-"));
    const dataDir = path.join(dir, "pglite");
    let template: Blob | null = await loadPgliteTemplate();
    return {
      async open(): Promise<DatabaseHandle> {
        const handle = await openPglite(template ? { dataDir, loadDataDir: template } : { dataDir });
        template = null;
        return handle;
      },
      drop: () => rm(dir, { recursive: true, force: true }),
      env: { DATA_DIR: dir, DATABASE_URL: "" },
    };
  }
  const name = `sb_test_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database "${name}" template "${postgresTemplateName()}"`);
  return {
    open: () => openPostgres(withDatabase(serverUrl, name)),
    drop: () => admin(`drop database if exists "${name}" with (force)`),
    env: { DATABASE_URL: withDatabase(serverUrl, name) },
  };
}
