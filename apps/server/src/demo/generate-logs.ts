// Fills an organisation with generated call logs (the demo and scale data of issue 8):
//   node --import tsx apps/server/src/demo/generate-logs.ts --org <organisation id> [--count 10000] [--days 90] [--usage]
// on the database the server uses (DATABASE_URL, else PGlite in DATA_DIR). Migrations are applied first.
import { parseArgs } from "node:util";
import { and, eq, isNull } from "drizzle-orm";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { accounts } from "../db/schema/index.ts";
import { insertGeneratedLogs } from "../modules/logs/insert-generated-logs.ts";

const { values } = parseArgs({
  options: {
    org: { type: "string" },
    count: { type: "string", default: "10000" },
    days: { type: "string", default: "90" },
    usage: { type: "boolean", default: false },
  },
});
const orgId = Number(values.org);
const count = Number(values.count);
const days = Number(values.days);
if (!Number.isSafeInteger(orgId) || orgId <= 0 || !Number.isSafeInteger(count) || count < 1 || !(days >= 1)) {
  console.error("usage: generate-logs.ts --org <organisation id> [--count N] [--days 90] [--usage]");
  process.exit(1);
}
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const database = await openDatabase(config);
try {
  await migrateDatabase(database);
  const db = database.db;
  const [organization] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, orgId), eq(accounts.accountType, "organization")));
  if (!organization) throw new Error(`No organisation with id ${orgId}`);
  const agents = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(eq(accounts.organizationId, orgId), eq(accounts.accountType, "agent"), isNull(accounts.deletedAt)),
    );
  const details = organization.details as Record<string, unknown>;
  const started = performance.now();
  const written = await insertGeneratedLogs(db, {
    orgId,
    accountName: String(details.orgName ?? details.displayName ?? organization.username),
    agentIds: agents.length > 0 ? agents.map((agent) => agent.id) : [orgId],
    count,
    days,
    usage: values.usage,
  });
  console.log(
    `${written} call log rows written for organisation ${orgId} in ${Math.round(performance.now() - started)} ms`,
  );
} finally {
  await database.close();
}
