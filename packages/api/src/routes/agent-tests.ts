import { z } from "zod";
import { idSchema } from "../fields.ts";
import { defineRoute } from "../route.ts";

/** User-facing messages of the agent test suites; each key is its code in the catalogue (messages.ts). */
export const AGENT_TEST_MESSAGES = {
  scenarioNotFound: "Test scenario not found",
  runNotFound: "Test run not found",
  noScenarios: "Add a scenario before running tests.",
  alreadyRunning: "The tests are already running.",
  publishHeld: "A required test scenario has not passed on this version. Run the tests, or publish anyway.",
} as const;

/** At most this many scenarios an agent, lines a scenario and checks a scenario. */
export const AGENT_TEST_LIMITS = { scenarios: 50, lines: 12, checks: 10, maxLatencyMs: 60_000 } as const;

/** What a call can end in that a check may ask for. */
export const TEST_OUTCOMES = ["booked", "transferred", "ended"] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

const phrase = z.string().trim().min(1, { message: "Enter a phrase." }).max(200);

/**
 * A check a scenario's call must meet: a phrase the agent says at least once, one it never says, an outcome
 * it reaches (a booking made, a transfer, the agent ending the call), or a latency bound (the first answer,
 * or the 95th percentile of its answers, from the caller's last word to the agent's first sound).
 */
export const testCheckSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("says"), phrase }),
  z.object({ kind: z.literal("neverSays"), phrase }),
  z.object({ kind: z.literal("reaches"), outcome: z.enum(TEST_OUTCOMES) }),
  z.object({
    kind: z.literal("latency"),
    measure: z.enum(["firstAnswer", "p95"]),
    maxMs: z.number().int().min(1).max(AGENT_TEST_LIMITS.maxLatencyMs),
  }),
]);
export type TestCheck = z.infer<typeof testCheckSchema>;

const SCENARIO_NEEDS_A_CALLER = "Write the caller's lines, or describe the caller and what they want.";

const scenarioFields = z.object({
  name: z.string().trim().min(1, { message: "Enter a name." }).max(200),
  /**
   * Who the caller is and what they want, in plain words. Without lines the simulated caller plays this
   * persona: it says what it wants and answers the agent's questions from it, turn by turn.
   */
  persona: z.string().trim().max(2000).default(""),
  /** What the caller says, one line a turn (a script); none: the persona speaks. */
  lines: z
    .array(z.string().trim().min(1, { message: "A turn cannot be empty." }).max(500))
    .max(AGENT_TEST_LIMITS.lines)
    .default([]),
  checks: z
    .array(testCheckSchema)
    .min(1, { message: "Add at least one check." })
    .max(AGENT_TEST_LIMITS.checks),
  /** A required scenario that fails holds publishing (unless the owner publishes anyway). */
  required: z.boolean().default(false),
});

export const testScenarioFieldsSchema = scenarioFields.superRefine((fields, context) => {
  if (fields.lines.length === 0 && !fields.persona)
    context.addIssue({ code: "custom", path: ["lines"], message: SCENARIO_NEEDS_A_CALLER });
});
export type TestScenarioFields = z.infer<typeof testScenarioFieldsSchema>;

export const testScenarioSchema = scenarioFields.extend({
  id: z.number().int(),
  agentId: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TestScenario = z.infer<typeof testScenarioSchema>;

export const testCheckResultSchema = z.object({
  check: testCheckSchema,
  passed: z.boolean(),
  detail: z.string(),
});
export type TestCheckResult = z.infer<typeof testCheckResultSchema>;

export const testResultSchema = z.object({
  scenarioId: z.number().int(),
  name: z.string(),
  required: z.boolean(),
  /** The staging revision the call was made against. */
  revision: z.number().int(),
  verdict: z.enum(["passed", "failed", "error"]),
  checks: z.array(testCheckResultSchema),
  transcript: z.array(z.object({ role: z.enum(["caller", "agent"]), text: z.string() })),
  timings: z.object({
    durationMs: z.number(),
    /** The greeting's first sound after the call was answered. */
    greetingMs: z.number().nullable(),
    /** Each answer: the caller's last word to the agent's first sound. */
    answerMs: z.array(z.number()),
    p95Ms: z.number().nullable(),
  }),
  conversationUuid: z.string().nullable(),
  /** Why the call could not be made or judged (verdict `error`). */
  error: z.string().nullable(),
});
export type TestResult = z.infer<typeof testResultSchema>;

export const testRunSchema = z.object({
  id: z.number().int(),
  agentId: z.number().int(),
  revision: z.number().int(),
  status: z.enum(["running", "done", "failed"]),
  total: z.number().int(),
  done: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  error: z.string().nullable(),
  /** What the agent's model can and cannot be judged on (the sandbox model), else null. */
  note: z.string().nullable(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  results: z.array(testResultSchema),
});
export type TestRun = z.infer<typeof testRunSchema>;

/** A required scenario that holds publishing: its last verdict on the revision, or `not run` on it. */
export const failingTestSchema = z.object({
  scenarioId: z.number().int(),
  name: z.string(),
  state: z.enum(["failed", "error", "not run"]),
});
export type FailingTest = z.infer<typeof failingTestSchema>;

/** The 409 answer of a publish held by the agent's tests. */
export const publishHeldSchema = z.object({
  success: z.literal(false),
  message: z.literal(AGENT_TEST_MESSAGES.publishHeld),
  failingTests: z.array(failingTestSchema),
});

const agentPath = z.object({ id: idSchema });
const scenarioPath = z.object({ id: idSchema, scenarioId: idSchema });
const scenarioAnswer = z.object({ success: z.literal(true), scenario: testScenarioSchema });
const runAnswer = z.object({ success: z.literal(true), run: testRunSchema });

export const listAgentTests = defineRoute({
  id: "listAgentTests",
  method: "GET",
  path: "/api/v2/agents/{id}/tests",
  summary:
    "The agent's test scenarios, its staging revision and its latest test runs (newest first) with their results.",
  tag: "Agent tests",
  auth: "token",
  permission: "canViewOrg",
  params: agentPath,
  response: z.object({
    success: z.literal(true),
    revision: z.number().int(),
    scenarios: z.array(testScenarioSchema),
    runs: z.array(testRunSchema),
  }),
});

export const createAgentTest = defineRoute({
  id: "createAgentTest",
  method: "POST",
  path: "/api/v2/agents/{id}/tests",
  summary:
    "Add a test scenario: the simulated caller's lines and persona, and the checks its call must meet.",
  tag: "Agent tests",
  auth: "token",
  permission: "canEditOrg",
  params: agentPath,
  body: testScenarioFieldsSchema,
  response: scenarioAnswer,
});

export const updateAgentTest = defineRoute({
  id: "updateAgentTest",
  method: "PUT",
  path: "/api/v2/agents/{id}/tests/{scenarioId}",
  summary: "Replace a test scenario.",
  tag: "Agent tests",
  auth: "token",
  permission: "canEditOrg",
  params: scenarioPath,
  body: testScenarioFieldsSchema,
  response: scenarioAnswer,
});

export const deleteAgentTest = defineRoute({
  id: "deleteAgentTest",
  method: "DELETE",
  path: "/api/v2/agents/{id}/tests/{scenarioId}",
  summary: "Delete a test scenario and its results.",
  tag: "Agent tests",
  auth: "token",
  permission: "canEditOrg",
  params: scenarioPath,
  response: z.object({ success: z.literal(true) }),
});

export const runAgentTests = defineRoute({
  id: "runAgentTests",
  method: "POST",
  path: "/api/v2/agents/{id}/tests/run",
  summary:
    "Run the agent's scenarios against its staging copy: a real call each through the voice pipeline with a simulated caller. Answers the run at once; its results fill in as calls end.",
  tag: "Agent tests",
  auth: "token",
  permission: "canEditOrg",
  params: agentPath,
  response: runAnswer,
});

export const getAgentTestRun = defineRoute({
  id: "getAgentTestRun",
  method: "GET",
  path: "/api/v2/agents/{id}/tests/runs/{runId}",
  summary: "A test run: its progress (scenarios done of total) and the results so far.",
  tag: "Agent tests",
  auth: "token",
  permission: "canViewOrg",
  params: z.object({ id: idSchema, runId: idSchema }),
  response: runAnswer,
});

export const agentTestRoutes = [
  listAgentTests,
  createAgentTest,
  updateAgentTest,
  deleteAgentTest,
  runAgentTests,
  getAgentTestRun,
] as const;
