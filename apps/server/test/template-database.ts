import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { openPglite } from "../src/db/client.ts";
import { migrateDatabase, migrationsFolder } from "../src/db/migrate.ts";
import { installJobSchema, JOB_SCHEMA_VERSION } from "../src/jobs/schema.ts";

/** Fingerprint of the committed migrations and pg-boss's schema: a template is reused until they change. */
export function migrationsHash(): string {
  const hash = createHash("sha256");
  hash.update(`pg-boss schema ${JOB_SCHEMA_VERSION}`);
  for (const file of readdirSync(migrationsFolder).sort()) {
    if (file.endsWith(".sql")) hash.update(file).update(readFileSync(path.join(migrationsFolder, file)));
  }
  return hash.digest("hex").slice(0, 12);
}

const cacheDir = path.resolve(import.meta.dirname, "../.tmp");
export const pgliteTemplateFile = () => path.join(cacheDir, `pglite-template-2-${migrationsHash()}.tar`);
export const postgresTemplateName = () => `sb_template_${migrationsHash()}`;

/** A migrated PGlite data directory dumped once; each test file loads its own copy in well under a second. */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = pgliteTemplateFile();
  if (existsSync(file)) return file;
  await mkdir(cacheDir, { recursive: true });
  const handle = await openPglite();
  await migrateDatabase(handle);
  await installJobSchema(handle);
  if (handle.driver.kind !== "pglite") throw new Error("unreachable");
  // The app uses the `postgres` database only: without template0 and template1 (a third of the files, 15 of
  // 46 MB) each test database loads in about a quarter less CPU.
  for (const template of ["template0", "template1"]) {
    await handle.driver.client.exec(`alter database ${template} is_template false`);
    await handle.driver.client.exec(`drop database ${template}`);
  }
  await handle.driver.client.exec("checkpoint");
  const dump = await handle.driver.client.dumpDataDir("none");
  await handle.close();
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  return file;
}

/**
 * The template's bytes as a Blob whose `arrayBuffer()` is one copy: PGlite reads the whole Blob, and Node 20
 * reads a plain 46 MB Blob in small chunks joined again (a third of a CPU-second per test database).
 */
class TemplateBlob extends Blob {
  readonly #data: Uint8Array;
  constructor(data: Uint8Array) {
    super([]);
    this.#data = data;
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.#data).buffer;
  }
}

/** Read once per process (test files share their worker's modules). */
let templateBytes: Promise<Uint8Array> | null = null;

export async function loadPgliteTemplate(): Promise<Blob> {
  templateBytes ??= ensurePgliteTemplate().then((file) => readFile(file));
  return new TemplateBlob(await templateBytes);
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A migrated template database on the PostgreSQL server; test databases are created from it. */
export async function ensurePostgresTemplate(serverUrl: string): Promise<string> {
  const name = postgresTemplateName();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount) return name;
    const building = `${name}_building_${process.pid}`;
    await admin.query(`create database "${building}"`);
    const { openPostgres } = await import("../src/db/client.ts");
    const handle = await openPostgres(withDatabase(serverUrl, building));
    await migrateDatabase(handle);
    await installJobSchema(handle);
    await handle.close();
    await admin.query(`alter database "${building}" rename to "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}
