import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { AccountRow } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import { accounts } from "../../db/schema/index.ts";
import { param } from "./sql.ts";

/**
 * Whose log rows an account sees: an organisation its own, an agent account its organisation's rows of that
 * agent, a reseller or partner the rows of every organisation below it. `orgIds` null means every tenant
 * (the super admin's review list).
 */
export type LogScope = { orgIds: number[] | null; agentId: number | null };

export async function scopeOf(db: Database, target: AccountRow): Promise<LogScope> {
  switch (target.accountType) {
    case "agent":
      return { orgIds: target.organizationId ? [target.organizationId] : [], agentId: target.id };
    case "organization":
      return { orgIds: [target.id], agentId: null };
    default: {
      const column = target.accountType === "partner" ? accounts.partnerId : accounts.resellerId;
      const rows = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where(
          and(eq(column, target.id), eq(accounts.accountType, "organization"), isNull(accounts.deletedAt)),
        );
      return { orgIds: rows.map((row) => row.id), agentId: null };
    }
  }
}

/** The scope as a condition on `conversation_logs` (or a table with the same columns, under `alias`). */
export function scopeSql(scope: LogScope, alias = ""): SQL {
  const col = (name: string) =>
    alias ? sql`${sql.identifier(alias)}.${sql.identifier(name)}` : sql.identifier(name);
  const parts: SQL[] = [];
  if (scope.orgIds !== null) {
    if (scope.orgIds.length === 0) return sql`FALSE`;
    parts.push(
      scope.orgIds.length === 1
        ? sql`${col("org_id")} = ${param(scope.orgIds[0] as number, "int")}`
        : sql`${col("org_id")} = ANY(${param(scope.orgIds, "int[]")})`,
    );
  }
  if (scope.agentId !== null) parts.push(sql`${col("agent_id")} = ${param(scope.agentId, "int")}`);
  return parts.length === 0 ? sql`TRUE` : sql.join(parts, sql` AND `);
}
