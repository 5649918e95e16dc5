import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { AccountRow } from "../../access/access.ts";
import type { Database } from "../../db/client.ts";
import { type AgentConfigColumn, accounts, agentConfigs, agentTemplates } from "../../db/schema/index.ts";

export type TemplateRow = typeof agentTemplates.$inferSelect;
export type LinkedConfigRow = typeof agentConfigs.$inferSelect;

export function createTemplatesRepository(db: Database) {
  return {
    /** Built-in templates and those owned by one of `ownerIds`. */
    async listVisible(ownerIds: number[]): Promise<TemplateRow[]> {
      const owned = ownerIds.length > 0 ? inArray(agentTemplates.ownerAccountId, ownerIds) : undefined;
      return db
        .select()
        .from(agentTemplates)
        .where(
          and(
            isNull(agentTemplates.deletedAt),
            owned ? or(isNull(agentTemplates.ownerAccountId), owned) : isNull(agentTemplates.ownerAccountId),
          ),
        )
        .orderBy(asc(agentTemplates.name), asc(agentTemplates.id));
    },

    async find(id: number): Promise<TemplateRow | null> {
      const [row] = await db
        .select()
        .from(agentTemplates)
        .where(and(eq(agentTemplates.id, id), isNull(agentTemplates.deletedAt)))
        .limit(1);
      return row ?? null;
    },

    async insert(values: {
      ownerAccountId: number | null;
      name: string;
      description: string | null;
      body: AgentConfigColumn;
    }): Promise<TemplateRow> {
      const [row] = await db.insert(agentTemplates).values(values).returning();
      if (!row) throw new Error("template insert returned nothing");
      return row;
    },

    /** Changes a template; with `expected`, only while its revision still is that one (else null). */
    async update(
      id: number,
      set: { name?: string; description?: string | null; body?: AgentConfigColumn },
      expected?: number,
    ): Promise<TemplateRow | null> {
      const [row] = await db
        .update(agentTemplates)
        .set({ ...set, revision: sql`${agentTemplates.revision} + 1`, updatedAt: new Date() })
        .where(
          and(
            eq(agentTemplates.id, id),
            isNull(agentTemplates.deletedAt),
            expected === undefined ? undefined : eq(agentTemplates.revision, expected),
          ),
        )
        .returning();
      return row ?? null;
    },

    async softDelete(id: number): Promise<void> {
      await db.update(agentTemplates).set({ deletedAt: new Date() }).where(eq(agentTemplates.id, id));
    },

    /**
     * The stored copies (staging and production) of live agents in `scope`'s subtree that link to the
     * template; an organisation's own agents are found through the org_id index.
     */
    async linkedConfigs(templateId: number, scope: AccountRow) {
      const inScope =
        scope.accountType === "organization"
          ? eq(agentConfigs.orgId, scope.id)
          : scope.accountType === "agent"
            ? eq(agentConfigs.agentAccountId, scope.id)
            : scope.accountType === "reseller"
              ? eq(accounts.resellerId, scope.id)
              : eq(accounts.partnerId, scope.id);
      return db
        .select({ config: agentConfigs, account: accounts })
        .from(agentConfigs)
        .innerJoin(accounts, eq(accounts.id, agentConfigs.agentAccountId))
        .where(
          and(
            inScope,
            sql`${agentConfigs.config}->>'templateId' = ${String(templateId)}`,
            isNull(accounts.deletedAt),
          ),
        )
        .orderBy(asc(agentConfigs.agentAccountId), asc(agentConfigs.stage));
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
