import type { TestScenarioFields } from "@switchboard/api";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { agentTestResults, agentTestRuns, agentTestScenarios } from "../../db/schema/index.ts";

export type ScenarioRow = typeof agentTestScenarios.$inferSelect;
export type RunRow = typeof agentTestRuns.$inferSelect;
export type ResultRow = typeof agentTestResults.$inferSelect;
/** An agent: its account id and organisation (every query is scoped by both). */
export type AgentKey = { id: number; orgId: number };

/** The only code that touches the agent test tables. */
export function createAgentTestsRepository(db: Database) {
  const ofAgent = (agent: AgentKey) =>
    and(eq(agentTestScenarios.orgId, agent.orgId), eq(agentTestScenarios.agentAccountId, agent.id));
  const runOfAgent = (agent: AgentKey) =>
    and(eq(agentTestRuns.orgId, agent.orgId), eq(agentTestRuns.agentAccountId, agent.id));

  return {
    async scenarios(agent: AgentKey): Promise<ScenarioRow[]> {
      return db.select().from(agentTestScenarios).where(ofAgent(agent)).orderBy(agentTestScenarios.id);
    },

    async countScenarios(agent: AgentKey): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(agentTestScenarios)
        .where(ofAgent(agent));
      return row?.n ?? 0;
    },

    async insertScenario(agent: AgentKey, fields: TestScenarioFields): Promise<ScenarioRow> {
      const [row] = await db
        .insert(agentTestScenarios)
        .values({ orgId: agent.orgId, agentAccountId: agent.id, ...fields })
        .returning();
      if (!row) throw new Error("the scenario was not stored");
      return row;
    },

    async updateScenario(
      agent: AgentKey,
      id: number,
      fields: TestScenarioFields,
    ): Promise<ScenarioRow | null> {
      const [row] = await db
        .update(agentTestScenarios)
        .set({ ...fields, updatedAt: new Date() })
        .where(and(ofAgent(agent), eq(agentTestScenarios.id, id)))
        .returning();
      return row ?? null;
    },

    async deleteScenario(agent: AgentKey, id: number): Promise<boolean> {
      const rows = await db
        .delete(agentTestScenarios)
        .where(and(ofAgent(agent), eq(agentTestScenarios.id, id)))
        .returning({ id: agentTestScenarios.id });
      return rows.length > 0;
    },

    async scenarioExists(id: number): Promise<boolean> {
      const [row] = await db
        .select({ id: agentTestScenarios.id })
        .from(agentTestScenarios)
        .where(eq(agentTestScenarios.id, id));
      return row !== undefined;
    },

    async insertRun(
      agent: AgentKey,
      tested: { revision: number; configHash: string },
      total: number,
    ): Promise<RunRow> {
      const [row] = await db
        .insert(agentTestRuns)
        .values({ orgId: agent.orgId, agentAccountId: agent.id, ...tested, total })
        .returning();
      if (!row) throw new Error("the run was not stored");
      return row;
    },

    async runningRun(agent: AgentKey): Promise<RunRow | null> {
      const [row] = await db
        .select()
        .from(agentTestRuns)
        .where(and(runOfAgent(agent), eq(agentTestRuns.status, "running")))
        .limit(1);
      return row ?? null;
    },

    async findRun(agent: AgentKey, id: number): Promise<RunRow | null> {
      const [row] = await db
        .select()
        .from(agentTestRuns)
        .where(and(runOfAgent(agent), eq(agentTestRuns.id, id)));
      return row ?? null;
    },

    /** A run by id alone: the job that carries it out. */
    async runById(id: number): Promise<RunRow | null> {
      const [row] = await db.select().from(agentTestRuns).where(eq(agentTestRuns.id, id));
      return row ?? null;
    },

    async latestRuns(agent: AgentKey, limit: number): Promise<RunRow[]> {
      return db
        .select()
        .from(agentTestRuns)
        .where(runOfAgent(agent))
        .orderBy(desc(agentTestRuns.id))
        .limit(limit);
    },

    async finishRun(id: number, status: "done" | "failed", error: string | null): Promise<void> {
      await db
        .update(agentTestRuns)
        .set({ status, error, finishedAt: new Date() })
        .where(and(eq(agentTestRuns.id, id), eq(agentTestRuns.status, "running")));
    },

    async insertResult(values: typeof agentTestResults.$inferInsert): Promise<void> {
      await db.insert(agentTestResults).values(values);
    },

    async resultsOf(orgId: number, runIds: number[]): Promise<ResultRow[]> {
      if (runIds.length === 0) return [];
      return db
        .select()
        .from(agentTestResults)
        .where(and(eq(agentTestResults.orgId, orgId), inArray(agentTestResults.runId, runIds)))
        .orderBy(agentTestResults.id);
    },

    /** Each scenario's newest result on the configuration `configHash`. */
    async latestResultsOn(agent: AgentKey, configHash: string): Promise<ResultRow[]> {
      return db
        .selectDistinctOn([agentTestResults.scenarioId])
        .from(agentTestResults)
        .where(
          and(
            eq(agentTestResults.orgId, agent.orgId),
            eq(agentTestResults.agentAccountId, agent.id),
            eq(agentTestResults.configHash, configHash),
          ),
        )
        .orderBy(agentTestResults.scenarioId, desc(agentTestResults.id));
    },
  };
}

export type AgentTestsRepository = ReturnType<typeof createAgentTestsRepository>;
