import { ensurePgliteTemplate, ensurePostgresTemplate } from "./template-database.ts";

/** Migrates once per run (or reuses the template of an earlier run with the same migrations). */
export default async function setup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (url) await ensurePostgresTemplate(url);
  else await ensurePgliteTemplate();
}
