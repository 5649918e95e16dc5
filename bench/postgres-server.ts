import pg from "pg";

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
