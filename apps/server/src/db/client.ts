import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
/** The Drizzle database, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = "pglite" | "postgres";

export type DatabaseDriver = { kind: "pglite"; client: PGlite } | { kind: "postgres"; pool: pg.Pool };

export type DatabaseHandle = {
  kind: DatabaseKind;
  db: Database;
  /** The raw driver, for the few places that need it (migrations, LISTEN/NOTIFY, job queue). */
  driver: DatabaseDriver;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

export type PgliteSource = { dataDir?: string; loadDataDir?: Blob };

/** PGlite: PostgreSQL compiled to WASM, in-process, one connection shared by the whole process. */
export async function openPglite(source: PgliteSource = {}): Promise<DatabaseHandle> {
  if (source.dataDir) await mkdir(path.dirname(source.dataDir), { recursive: true });
  const client = await PGlite.create({
    ...(source.dataDir ? { dataDir: source.dataDir } : {}),
    ...(source.loadDataDir ? { loadDataDir: source.loadDataDir } : {}),
  });
  const db = drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Database;
  return {
    kind: "pglite",
    db,
    driver: { kind: "pglite", client },
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
  };
}

/**
 * Connections per server instance. A request holds one only for a round trip (about a millisecond on the
 * inbox list), so 10 serve 50 concurrent requests while PostgreSQL, not the pool, is the limit on a small
 * machine; more connections only add backends competing for the same cores. PostgreSQL's own limit (100
 * by default) bounds the instances times this.
 */
export const POOL_SIZE = 10;

export async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: 5000 });
  // An idle connection the server closes (restart, failover, a dropped database) is reported on the pool;
  // unheard, that event would end the process. The pool opens a new connection when one is next needed.
  pool.on("error", (error) => {
    console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
  });
  const db = drizzleNodePg({ client: pool, schema, casing: "snake_case" }) as unknown as Database;
  return {
    kind: "postgres",
    db,
    driver: { kind: "postgres", pool },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

/** PGlite in `DATA_DIR/pglite` by default; the PostgreSQL server of DATABASE_URL when set. */
export function openDatabase(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl)
    : openPglite({ dataDir: path.join(config.dataDir, "pglite") });
}

const dialect = new PgDialect();

/**
 * Runs a raw statement of a hot path. On a PostgreSQL server it is a named prepared statement (the name
 * followed by a hash of the text, so each shape of the statement has its own): each connection parses and
 * plans it once and then only binds and executes it. PGlite runs it as it is.
 */
export async function executePrepared<T>(db: Database, name: string, query: SQL): Promise<T[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (!(client instanceof pg.Pool)) return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const compiled = dialect.sqlToQuery(query);
  const hash = createHash("sha1").update(compiled.sql).digest("hex").slice(0, 16);
  const result = await client.query({ name: `${name}_${hash}`, text: compiled.sql, values: compiled.params });
  return result.rows as T[];
}
