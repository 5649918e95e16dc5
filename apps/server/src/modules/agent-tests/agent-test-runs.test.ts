// Issue 35 item 5: an agent's test suite runs as real calls through the voice pipeline (a simulated caller,
// the sandbox model): a scenario fails on a bad prompt and passes after the fix, verdicts and timings come
// from the call the pipeline carried, results are kept per staging revision, and publishing is held while a
// required scenario has not passed (unless the owner publishes anyway).
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { agentTestRunJob } from "./jobs.ts";

const BAD_PROMPT = [
  "You answer the phone for Bluebird Dental.",
  "Q: How much is a cleaning?",
  "A: A cleaning is $120 without insurance.",
].join("\n");
const FIXED_PROMPT = [
  "You answer the phone for Bluebird Dental.",
  "Q: How much is a cleaning?",
  "A: Our front desk gives you a quote for a cleaning when you visit.",
].join("\n");

let app: FastifyInstance;
let agentId: number;
let owner: ReturnType<ReturnType<typeof testClient>>;

beforeAll(async () => {
  app = await buildTestApp();
  const world = await buildHierarchy(app);
  agentId = world.accounts.A1.id;
  owner = testClient(app)(world.members.o1Owner.token);
});
afterAll(async () => {
  await app.close();
});

async function save(agentInstructions: string) {
  const { staging } = await owner.call(api.getCampaigns, { query: { agentId } });
  const saved = await owner.call(api.saveCampaign, {
    body: {
      agentId,
      revision: staging.revision,
      agentInstructions,
      greeting: "Thanks for calling Bluebird Dental.",
      published: false,
    },
  });
  return saved.campaign.revision;
}

async function runTests() {
  const { run } = await owner.call(api.runAgentTests, { params: { id: agentId } });
  expect(run).toMatchObject({ status: "running", done: 0, total: 1 });
  await app.context.jobs.idle([agentTestRunJob], within(110_000));
  const { run: ended } = await owner.call(api.getAgentTestRun, { params: { id: agentId, runId: run.id } });
  expect(ended).toMatchObject({ status: "done", done: 1, total: 1 });
  return ended;
}

describe("an agent's test suite", () => {
  it("fails a scenario on a bad prompt, holds publishing, and passes after the fix", {
    timeout: within(240_000),
  }, async () => {
    const badRevision = await save(BAD_PROMPT);
    const { scenario } = await owner.call(api.createAgentTest, {
      params: { id: agentId },
      body: {
        name: "Never quotes a price",
        persona: "A new patient asking what a cleaning costs.",
        lines: ["How much is a cleaning?"],
        checks: [
          { kind: "neverSays", phrase: "$" },
          { kind: "says", phrase: "front desk" },
          { kind: "latency", measure: "firstAnswer", maxMs: 20_000 },
        ],
        required: true,
      },
    });

    const failed = await runTests();
    expect(failed.revision).toBe(badRevision);
    // The sandbox model: what can and cannot be judged is said with the run.
    expect(failed.note).toMatch(/sandbox model/);
    const [bad] = failed.results;
    expect(bad).toMatchObject({ scenarioId: scenario.id, verdict: "failed", revision: badRevision });
    // The real transcript of the call: the caller's line as the recogniser heard it, the agent's answer.
    expect(bad?.transcript.slice(-3)).toEqual([
      { role: "agent", text: "Thanks for calling Bluebird Dental." },
      { role: "caller", text: "how much is a cleaning" },
      { role: "agent", text: expect.stringContaining("$120") },
    ]);
    expect(bad?.checks.map((check) => [check.check.kind, check.passed])).toEqual([
      ["neverSays", false],
      ["says", false],
      ["latency", true],
    ]);
    expect(bad?.checks[0]?.detail).toContain("$120");
    // Timings of the call the pipeline carried.
    expect(bad?.timings.greetingMs).toBeGreaterThan(0);
    expect(bad?.timings.answerMs).toHaveLength(1);
    expect(bad?.timings.answerMs[0]).toBeGreaterThan(0);
    expect(bad?.conversationUuid).toEqual(expect.any(String));

    // Publishing is held while the required scenario fails; the owner can override.
    const held = await expectRefusal(
      owner.call(api.publishAgent, { body: { agentId } }),
      409,
      api.AGENT_TEST_MESSAGES.publishHeld,
    );
    expect(held.body.failingTests).toEqual([
      { scenarioId: scenario.id, name: "Never quotes a price", state: "failed" },
    ]);
    const overridden = await owner.call(api.publishAgent, { body: { agentId, overrideTests: true } });
    expect(overridden.production?.agentInstructions).toBe(BAD_PROMPT);

    // The fix: a new revision, not yet run, is held too; once its run passes, it publishes.
    const fixedRevision = await save(FIXED_PROMPT);
    const notRun = await expectRefusal(owner.call(api.publishAgent, { body: { agentId } }), 409);
    expect(notRun.body.failingTests).toEqual([
      { scenarioId: scenario.id, name: "Never quotes a price", state: "not run" },
    ]);
    const passed = await runTests();
    expect(passed.results[0]).toMatchObject({ verdict: "passed", revision: fixedRevision });
    expect(passed.results[0]?.transcript.at(-1)?.text).toContain("front desk");
    // The editor saves before it publishes: a new revision of the same configuration keeps its results.
    const resaved = await save(FIXED_PROMPT);
    expect(resaved).toBeGreaterThan(fixedRevision);
    const published = await owner.call(api.publishAgent, { body: { agentId } });
    expect(published.production?.agentInstructions).toBe(FIXED_PROMPT);

    // Results are kept per revision: the listing shows which revision broke the scenario and which fixed it.
    const listed = await owner.call(api.listAgentTests, { params: { id: agentId } });
    expect(listed.runs.map((run) => [run.revision, run.results[0]?.verdict])).toEqual([
      [fixedRevision, "passed"],
      [badRevision, "failed"],
    ]);
  });

  it("plays a persona when a scenario has no lines: it asks in its own words and leaves when answered", {
    timeout: within(240_000),
  }, async () => {
    for (const { id } of (await owner.call(api.listAgentTests, { params: { id: agentId } })).scenarios)
      await owner.call(api.deleteAgentTest, { params: { id: agentId, scenarioId: id } });
    await save(FIXED_PROMPT);
    const { scenario } = await owner.call(api.createAgentTest, {
      params: { id: agentId },
      body: {
        name: "Asks the price, in its own words",
        persona: "A new patient asking how much a cleaning is.",
        checks: [
          { kind: "says", phrase: "front desk" },
          { kind: "neverSays", phrase: "$" },
        ],
      },
    });
    expect(scenario.lines).toEqual([]);
    const ended = await runTests();
    const [result] = ended.results;
    expect(result, JSON.stringify(result?.transcript)).toMatchObject({ verdict: "passed" });
    const said = result?.transcript.filter((line) => line.role === "caller").map((line) => line.text) ?? [];
    // Its opening line as the recogniser heard it, then its goodbye once the agent had answered.
    expect(said[0]).toMatch(/cleaning/);
    expect(said.length).toBeGreaterThanOrEqual(2);
    expect(said.length).toBeLessThanOrEqual(4);
  });
});
