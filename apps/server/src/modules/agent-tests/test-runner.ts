import type { TestCheck, TestResult } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { MessageRow } from "../conversations/index.ts";
import type { ScenarioCallInput, ScenarioCallResult } from "../voice/index.ts";
import type { AgentTestsRepository, RunRow, ScenarioRow } from "./agent-tests.repository.ts";
import { type CallRecord, judgeCheck, p95, verdictOf } from "./test-verdicts.ts";

/** The number the simulated caller rings from (a reserved fictional number). */
export const TEST_CALLER_NUMBER = "+15555550100";
export const RUN_STOPPED = "The server stopped during the test run. Run the tests again.";

export type TestRunnerDeps = {
  repo: AgentTestsRepository;
  /** A scenario's call through the voice pipeline (in a voice worker when one is up). */
  call: (input: ScenarioCallInput, signal: AbortSignal) => Promise<ScenarioCallResult>;
  messagesOf: (conversationUuid: string) => Promise<MessageRow[]>;
  log: FastifyBaseLogger;
};

/** What the stored conversation of a call says: its transcript and the tools the agent ran. */
export function recordOf(messages: readonly MessageRow[], call: ScenarioCallResult): CallRecord {
  const transcript: TestResult["transcript"] = [];
  const tools: CallRecord["tools"] = [];
  for (const message of messages) {
    if ((message.role === "user" || message.role === "assistant") && message.text.trim())
      transcript.push({ role: message.role === "user" ? "caller" : "agent", text: message.text });
    for (const result of message.toolResults) tools.push({ name: result.name, ok: !result.error });
  }
  const answerMs: number[] = [];
  let unanswered = 0;
  for (const turn of call.summary.turns) {
    if (turn.firstFrameAt === null) unanswered++;
    else answerMs.push(Math.max(0, turn.firstFrameAt - turn.lastVoicedAt));
  }
  return {
    transcript,
    tools,
    outcome: call.summary.outcome,
    greetingMs: call.greetingMs,
    answerMs,
    unanswered,
  };
}

/** One scenario's call and its verdict (what the caller and the agent said, judged by its checks). */
export async function runScenario(
  deps: Pick<TestRunnerDeps, "call" | "messagesOf">,
  run: Pick<RunRow, "revision" | "agentAccountId">,
  scenario: Pick<ScenarioRow, "id" | "name" | "required" | "lines" | "persona" | "checks">,
  signal: AbortSignal,
): Promise<TestResult> {
  const base = {
    scenarioId: scenario.id,
    name: scenario.name,
    required: scenario.required,
    revision: run.revision,
  };
  const noTimings = { durationMs: 0, greetingMs: null, answerMs: [], p95Ms: null };
  let call: ScenarioCallResult;
  try {
    call = await deps.call(
      {
        agentAccountId: run.agentAccountId,
        lines: scenario.lines,
        persona: scenario.persona,
        from: TEST_CALLER_NUMBER,
      },
      signal,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      verdict: "error",
      checks: [],
      transcript: [],
      timings: noTimings,
      conversationUuid: null,
      error: message,
    };
  }
  const uuid = call.summary.conversationUuid;
  const messages = uuid ? await deps.messagesOf(uuid) : [];
  const record = recordOf(messages, call);
  const timings = {
    durationMs: call.durationMs,
    greetingMs: call.greetingMs,
    answerMs: record.answerMs.map(Math.round),
    p95Ms: p95(record.answerMs),
  };
  // A call that failed, or a simulated caller that could not go on, tested nothing about the agent.
  const failure =
    call.summary.outcome === "failed"
      ? (call.summary.error ?? "The call failed.")
      : call.callerFailed
        ? `The simulated caller could not go on: ${call.callerFailed}`
        : null;
  if (failure)
    return {
      ...base,
      verdict: "error",
      checks: [],
      transcript: record.transcript,
      timings,
      conversationUuid: uuid,
      error: failure,
    };
  const checks = (scenario.checks as TestCheck[]).map((check) => judgeCheck(check, record));
  return {
    ...base,
    verdict: verdictOf(checks),
    checks,
    transcript: record.transcript,
    timings: { ...timings, p95Ms: timings.p95Ms === null ? null : Math.round(timings.p95Ms) },
    conversationUuid: uuid,
    error: null,
  };
}

/**
 * Carries out a stored run: each scenario of the agent (as they are now) is called in turn and its result
 * stored as soon as it is judged, so the run's progress shows while it goes. Never throws: a run that
 * cannot go on is stored as failed with the reason.
 */
export async function carryOutRun(deps: TestRunnerDeps, runId: number, signal: AbortSignal): Promise<void> {
  const run = await deps.repo.runById(runId);
  if (run?.status !== "running") return;
  try {
    const scenarios = (await deps.repo.scenarios({ id: run.agentAccountId, orgId: run.orgId })).slice(
      0,
      run.total,
    );
    for (const scenario of scenarios) {
      if (signal.aborted) break;
      const result = await runScenario(deps, run, scenario, signal);
      // A scenario deleted during its call takes its result with it (the row would have no scenario).
      if (!(await deps.repo.scenarioExists(scenario.id))) continue;
      await deps.repo.insertResult({
        orgId: run.orgId,
        runId: run.id,
        scenarioId: scenario.id,
        agentAccountId: run.agentAccountId,
        revision: run.revision,
        configHash: run.configHash,
        verdict: result.verdict,
        detail: result,
      });
    }
    if (signal.aborted) await deps.repo.finishRun(run.id, "failed", RUN_STOPPED);
    else await deps.repo.finishRun(run.id, "done", null);
  } catch (error) {
    deps.log.error({ err: error, runId }, "an agent test run failed");
    const message = error instanceof Error ? error.message : String(error);
    await deps.repo
      .finishRun(run.id, "failed", `The test run could not go on: ${message}`)
      .catch((err: unknown) => deps.log.error({ err, runId }, "could not store a test run's failure"));
  }
}
