import type { Stage } from "@switchboard/api";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { type AgentConfigColumn, agentConfigs, agentVersions } from "../../db/schema/index.ts";

export type AgentConfigRow = typeof agentConfigs.$inferSelect;
export type AgentVersionRow = typeof agentVersions.$inferSelect;
export type AgentRef = { id: number; orgId: number };

/** The row of a copy written for the first time. */
const firstRevision = (agent: AgentRef, stage: Stage, config: AgentConfigColumn, updatedAt: Date) => ({
  orgId: agent.orgId,
  agentAccountId: agent.id,
  stage,
  config,
  revision: 1,
  updatedAt,
});

/** The change of a copy written again: its revision goes up by one. */
const nextRevision = (config: AgentConfigColumn, updatedAt: Date) => ({
  config,
  revision: sql`${agentConfigs.revision} + 1`,
  updatedAt,
});

export function createAgentsRepository(db: Database) {
  const configWhere = (agent: AgentRef, stage: Stage) =>
    and(
      eq(agentConfigs.orgId, agent.orgId),
      eq(agentConfigs.agentAccountId, agent.id),
      eq(agentConfigs.stage, stage),
    );

  return {
    async findConfig(agent: AgentRef, stage: Stage): Promise<AgentConfigRow | null> {
      const [row] = await db.select().from(agentConfigs).where(configWhere(agent, stage)).limit(1);
      return row ?? null;
    },

    /**
     * Writes a copy. With `expected`, only when the stored revision still is that one (0: not stored yet);
     * answers null when it is not (a stale save). Every write raises the revision by one.
     */
    async writeConfig(
      agent: AgentRef,
      stage: Stage,
      config: AgentConfigColumn,
      expected?: number,
    ): Promise<AgentConfigRow | null> {
      const now = new Date();
      if (expected === undefined) {
        const [row] = await db
          .insert(agentConfigs)
          .values(firstRevision(agent, stage, config, now))
          .onConflictDoUpdate({
            target: [agentConfigs.agentAccountId, agentConfigs.stage],
            set: nextRevision(config, now),
          })
          .returning();
        return row ?? null;
      }
      if (expected === 0) {
        const [row] = await db
          .insert(agentConfigs)
          .values(firstRevision(agent, stage, config, now))
          .onConflictDoNothing()
          .returning();
        return row ?? null;
      }
      const [row] = await db
        .update(agentConfigs)
        .set(nextRevision(config, now))
        .where(and(configWhere(agent, stage), eq(agentConfigs.revision, expected)))
        .returning();
      return row ?? null;
    },

    /** Writes several copies at once (publish: production and staging), all or none, each revision +1. */
    async writeConfigs(
      agent: AgentRef,
      writes: { stage: Stage; config: AgentConfigColumn }[],
    ): Promise<void> {
      const now = new Date();
      // PGlite has one connection: inside the transaction only `tx` may be used.
      await db.transaction(async (tx) => {
        for (const { stage, config } of writes) {
          await tx
            .insert(agentConfigs)
            .values(firstRevision(agent, stage, config, now))
            .onConflictDoUpdate({
              target: [agentConfigs.agentAccountId, agentConfigs.stage],
              set: nextRevision(config, now),
            });
        }
      });
    },

    async listVersions(agent: AgentRef): Promise<AgentVersionRow[]> {
      return db
        .select()
        .from(agentVersions)
        .where(and(eq(agentVersions.orgId, agent.orgId), eq(agentVersions.agentAccountId, agent.id)))
        .orderBy(desc(agentVersions.createdAt), desc(agentVersions.id));
    },

    async countVersions(agent: AgentRef): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(agentVersions)
        .where(and(eq(agentVersions.orgId, agent.orgId), eq(agentVersions.agentAccountId, agent.id)));
      return row?.n ?? 0;
    },

    async findVersion(agent: AgentRef, versionId: number): Promise<AgentVersionRow | null> {
      const [row] = await db
        .select()
        .from(agentVersions)
        .where(
          and(
            eq(agentVersions.orgId, agent.orgId),
            eq(agentVersions.agentAccountId, agent.id),
            eq(agentVersions.id, versionId),
          ),
        )
        .limit(1);
      return row ?? null;
    },

    async insertVersion(
      agent: AgentRef,
      values: { title: string; source: string; snapshot: AgentConfigColumn },
    ): Promise<AgentVersionRow> {
      const [row] = await db
        .insert(agentVersions)
        .values({ orgId: agent.orgId, agentAccountId: agent.id, ...values })
        .returning();
      if (!row) throw new Error("version insert returned nothing");
      return row;
    },

    async updateVersion(
      agent: AgentRef,
      versionId: number,
      set: { title?: string; snapshot?: AgentConfigColumn; source?: string },
    ): Promise<AgentVersionRow | null> {
      const [row] = await db
        .update(agentVersions)
        .set(set)
        .where(
          and(
            eq(agentVersions.orgId, agent.orgId),
            eq(agentVersions.agentAccountId, agent.id),
            eq(agentVersions.id, versionId),
          ),
        )
        .returning();
      return row ?? null;
    },
  };
}

export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
