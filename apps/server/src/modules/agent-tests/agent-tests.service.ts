import {
  AGENT_TEST_LIMITS,
  AGENT_TEST_MESSAGES,
  type Campaign,
  type TestResult,
  type TestRun,
  type TestScenario,
  type TestScenarioFields,
} from "@switchboard/api";
import type { Access } from "../../access/access.ts";
import { badRequest, conflict, notFound } from "../../api-error.ts";
import type { AgentsService } from "../agents/index.ts";
import type {
  AgentKey,
  AgentTestsRepository,
  ResultRow,
  RunRow,
  ScenarioRow,
} from "./agent-tests.repository.ts";
import { configFingerprint } from "./config-fingerprint.ts";
import { RUN_STOPPED } from "./test-runner.ts";

/** What can and cannot be judged on the sandbox model (no model configured). */
export const SANDBOX_TEST_NOTE =
  "Judged on the sandbox model: it answers only from the agent's instructions and runs its actions, so phrases, outcomes and timings are judged on what it really said and did; how a real model would word its answers, and open conversation beyond the instructions, cannot be judged until a model is chosen under Settings → AI model.";

/** A run still marked running after this long was cut off (its server stopped): it no longer blocks a run. */
const STALE_RUN_MS = 6 * 60 * 60_000;
/** Runs a listing answers. */
const RUNS_LISTED = 10;

export type AgentTestsServiceDeps = {
  repo: AgentTestsRepository;
  agents: Pick<AgentsService, "resolveAgent">;
  /** The agent's staging copy as it is now. */
  staging: (agent: AgentKey) => Promise<Campaign>;
  /** Whether the organisation's agents answer with the sandbox model. */
  usesSandbox: (orgId: number) => Promise<boolean>;
  /** Queues the run's job. */
  queueRun: (runId: number, agentId: number) => Promise<void>;
};

function toScenario(row: ScenarioRow): TestScenario {
  return {
    id: row.id,
    agentId: row.agentAccountId,
    name: row.name,
    persona: row.persona,
    lines: row.lines,
    checks: row.checks as TestScenario["checks"],
    required: row.required,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

export function createAgentTestsService(deps: AgentTestsServiceDeps) {
  const { repo } = deps;

  async function agentOf(
    access: Access,
    agentId: number,
    flag: "canViewOrg" | "canEditOrg",
  ): Promise<AgentKey> {
    return (await deps.agents.resolveAgent(access, agentId, flag)).ref;
  }

  async function toRun(row: RunRow, results: ResultRow[], note: string | null): Promise<TestRun> {
    const mine = results.filter((result) => result.runId === row.id);
    const details = mine.map((result) => result.detail as TestResult);
    return {
      id: row.id,
      agentId: row.agentAccountId,
      revision: row.revision,
      status: row.status,
      total: row.total,
      done: mine.length,
      passed: mine.filter((result) => result.verdict === "passed").length,
      failed: mine.filter((result) => result.verdict !== "passed").length,
      error: row.error,
      note,
      startedAt: row.startedAt.getTime(),
      finishedAt: row.finishedAt?.getTime() ?? null,
      results: details,
    };
  }

  async function runsOf(agent: AgentKey, rows: RunRow[]): Promise<TestRun[]> {
    const results = await repo.resultsOf(
      agent.orgId,
      rows.map((row) => row.id),
    );
    const note = (await deps.usesSandbox(agent.orgId)) ? SANDBOX_TEST_NOTE : null;
    return Promise.all(rows.map((row) => toRun(row, results, note)));
  }

  async function list(access: Access, agentId: number) {
    const agent = await agentOf(access, agentId, "canViewOrg");
    const [scenarios, runs, staging] = await Promise.all([
      repo.scenarios(agent),
      repo.latestRuns(agent, RUNS_LISTED),
      deps.staging(agent),
    ]);
    return {
      success: true as const,
      revision: staging.revision,
      scenarios: scenarios.map(toScenario),
      runs: await runsOf(agent, runs),
    };
  }

  async function create(access: Access, agentId: number, fields: TestScenarioFields) {
    const agent = await agentOf(access, agentId, "canEditOrg");
    if ((await repo.countScenarios(agent)) >= AGENT_TEST_LIMITS.scenarios)
      throw badRequest(`An agent has at most ${AGENT_TEST_LIMITS.scenarios} test scenarios.`);
    return { success: true as const, scenario: toScenario(await repo.insertScenario(agent, fields)) };
  }

  async function update(access: Access, agentId: number, scenarioId: number, fields: TestScenarioFields) {
    const agent = await agentOf(access, agentId, "canEditOrg");
    const row = await repo.updateScenario(agent, scenarioId, fields);
    if (!row) throw notFound(AGENT_TEST_MESSAGES.scenarioNotFound);
    return { success: true as const, scenario: toScenario(row) };
  }

  async function remove(access: Access, agentId: number, scenarioId: number) {
    const agent = await agentOf(access, agentId, "canEditOrg");
    if (!(await repo.deleteScenario(agent, scenarioId))) throw notFound(AGENT_TEST_MESSAGES.scenarioNotFound);
    return { success: true as const };
  }

  async function run(access: Access, agentId: number) {
    const agent = await agentOf(access, agentId, "canEditOrg");
    const running = await repo.runningRun(agent);
    if (running && Date.now() - running.startedAt.getTime() < STALE_RUN_MS)
      throw conflict(AGENT_TEST_MESSAGES.alreadyRunning);
    if (running) await repo.finishRun(running.id, "failed", RUN_STOPPED);
    const total = await repo.countScenarios(agent);
    if (total === 0) throw badRequest(AGENT_TEST_MESSAGES.noScenarios);
    const staging = await deps.staging(agent);
    const row = await repo.insertRun(
      agent,
      { revision: staging.revision, configHash: configFingerprint(staging) },
      total,
    );
    await deps.queueRun(row.id, agent.id);
    const [answer] = await runsOf(agent, [row]);
    return { success: true as const, run: answer as TestRun };
  }

  async function getRun(access: Access, agentId: number, runId: number) {
    const agent = await agentOf(access, agentId, "canViewOrg");
    const row = await repo.findRun(agent, runId);
    if (!row) throw notFound(AGENT_TEST_MESSAGES.runNotFound);
    const [answer] = await runsOf(agent, [row]);
    return { success: true as const, run: answer as TestRun };
  }

  /**
   * Publishing's hold: every required scenario must have passed on the staging configuration being published
   * (whatever revision carried it), in a result newer than the scenario's last change. Refuses (409) naming
   * those that did not.
   */
  async function checkPublish(agent: AgentKey): Promise<void> {
    const required = (await repo.scenarios(agent)).filter((scenario) => scenario.required);
    if (required.length === 0) return;
    const configHash = configFingerprint(await deps.staging(agent));
    const latest = new Map(
      (await repo.latestResultsOn(agent, configHash)).map((row) => [row.scenarioId, row]),
    );
    const failing = required.flatMap((scenario) => {
      const result = latest.get(scenario.id);
      if (result && result.createdAt >= scenario.updatedAt && result.verdict === "passed") return [];
      const state = !result || result.createdAt < scenario.updatedAt ? "not run" : result.verdict;
      return [{ scenarioId: scenario.id, name: scenario.name, state }];
    });
    if (failing.length > 0) throw conflict(AGENT_TEST_MESSAGES.publishHeld, { failingTests: failing });
  }

  return { list, create, update, remove, run, getRun, checkPublish };
}

export type AgentTestsService = ReturnType<typeof createAgentTestsService>;
