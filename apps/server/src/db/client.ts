import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
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
  /** Told of each table a statement of this process is about to write through Drizzle (see {@link WriteWatch}). */
  onWrite(listener: (table: string) => void): () => void;
  close(): Promise<void>;
};

// The table of each INSERT INTO, UPDATE and DELETE FROM in a statement's text (CTEs included).
const WRITTEN_TABLE = /\b(?:insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?/gi;

/**
 * Tells listeners which tables this process's statements write, as Drizzle sends them (its logger hook, so
 * before they run). Caches kept by the database's notices (db/notice-cache.ts) use it to forget at once what
 * this process changes: the notice arrives only after the commit, a moment after the writer may read again.
 */
class WriteWatch {
  readonly listeners = new Set<(table: string) => void>();
  logQuery(query: string): void {
    if (this.listeners.size === 0) return;
    for (const match of query.matchAll(WRITTEN_TABLE)) {
      const table = match[1]?.toLowerCase();
      if (table) for (const listener of this.listeners) listener(table);
    }
  }
  onWrite = (listener: (table: string) => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export type PgliteSource = { dataDir?: string; loadDataDir?: Blob };

// Node has WebAssembly; this project's type libraries declare only its types.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };

let pgliteFiles: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> | null = null;

/**
 * PGlite's WASM module, compiled once per process, and its file-system bundle, read once: each database
 * opened after the first (a test file's, a benchmark's) skips half a second of CPU.
 */
function pgliteRuntime() {
  pgliteFiles ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
    const [wasm, data] = await Promise.all([
      readFile(path.join(dist, "pglite.wasm")),
      readFile(path.join(dist, "pglite.data")),
    ]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })();
  return pgliteFiles;
}

/** PGlite: PostgreSQL compiled to WASM, in-process, one connection shared by the whole process. */
export async function openPglite(source: PgliteSource = {}): Promise<DatabaseHandle> {
  if (source.dataDir) await mkdir(path.dirname(source.dataDir), { recursive: true });
  const client = await PGlite.create({
    ...(await pgliteRuntime()),
    ...(source.dataDir ? { dataDir: source.dataDir } : {}),
    ...(source.loadDataDir ? { loadDataDir: source.loadDataDir } : {}),
    // Trigram indexes of search; btree_gin for the knowledge base's (org_id, tsv) index (contrib, as on a
    // PostgreSQL server).
    extensions: { pg_trgm, btree_gin },
  });
  return pgliteHandle(client);
}

/**
 * The handle of a PGlite client: this process's own, or (voice workers) the API process's served over the
 * worker's IPC channel (db/remote-pglite.ts).
 */
export function pgliteHandle(client: PGlite): DatabaseHandle {
  const watch = new WriteWatch();
  const db = drizzlePglite({ client, schema, casing: "snake_case", logger: watch }) as unknown as Database;
  return {
    kind: "pglite",
    db,
    onWrite: watch.onWrite,
    driver: { kind: "pglite", client },
    ping: async () => {
      await client.query("select 1");
    },
    close: () => client.close(),
  };
}

/**
 * Connections per server instance unless DATABASE_POOL_SIZE says otherwise. A request holds one only for a
 * round trip (about a millisecond on the inbox list), so 10 serve 50 concurrent requests while PostgreSQL,
 * not the pool, is the limit on a small machine; more connections only add backends competing for the same
 * cores. PostgreSQL's own limit (max_connections, 100 by default) bounds the instances times this.
 */
export const POOL_SIZE = 10;

/** Longest wait for a free connection; then the request answers 503 with Retry-After (error-handler.ts). */
export const POOL_WAIT_MS = 5000;

export async function openPostgres(
  url: string,
  options: {
    /** Connections at most (DATABASE_POOL_SIZE). */
    poolSize?: number;
    /** Longest wait for a free connection (benchmarks that queue a thousand requests wait longer). */
    connectionTimeoutMillis?: number;
  } = {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? POOL_SIZE,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? POOL_WAIT_MS,
  });
  // An idle connection the server closes (restart, failover, a dropped database) is reported on the pool;
  // unheard, that event would end the process. The pool opens a new connection when one is next needed.
  pool.on("error", (error) => {
    console.warn(`PostgreSQL closed an idle connection: ${error.message}`);
  });
  const watch = new WriteWatch();
  const db = drizzleNodePg({
    client: pool,
    schema,
    casing: "snake_case",
    logger: watch,
  }) as unknown as Database;
  return {
    kind: "postgres",
    db,
    onWrite: watch.onWrite,
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
  databasePoolSize: number;
  dataDir: string;
}): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, { poolSize: config.databasePoolSize })
    : openPglite({ dataDir: path.join(config.dataDir, "pglite") });
}

/**
 * Runs a raw statement and answers its rows. Not as a named prepared statement: a connection keeps such a
 * statement's generic plan, made once from the table statistics of that moment. Made while a table was
 * nearly empty, it stayed in use after the table had grown: the inbox list took 15-17 ms instead of 2 ms
 * after a 10,000-task dispatch (bench/tasks.bench.ts). Planned afresh, it follows the data.
 */
export async function executeRows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
