// Issue 35 item 5: the agent test suites' routes: scenarios are checked with their schema, scoped to the
// caller's own agents, and a run needs a scenario. (The runs themselves: agent-test-runs.test.ts.)
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefusal, testClient } from "../../../test/api-client.ts";
import { buildHierarchy, fingerprints } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let owner: ReturnType<ReturnType<typeof testClient>>;

const SCENARIO = {
  name: "Transfers when asked for a person",
  persona: "A caller who wants to speak to someone.",
  lines: ["Can I speak to a real person?"],
  checks: [{ kind: "reaches" as const, outcome: "transferred" as const }],
  required: false,
};

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  owner = testClient(app)(world.members.o1Owner.token);
});
afterAll(async () => {
  await app.close();
});

describe("agent test scenarios", () => {
  it("are added, listed, changed and deleted by the agent's organisation", async () => {
    const id = world.accounts.A1.id;
    const empty = await owner.call(api.listAgentTests, { params: { id } });
    expect(empty).toMatchObject({ scenarios: [], runs: [] });
    const { scenario } = await owner.call(api.createAgentTest, { params: { id }, body: SCENARIO });
    expect(scenario).toMatchObject({ ...SCENARIO, agentId: id });
    const { scenario: changed } = await owner.call(api.updateAgentTest, {
      params: { id, scenarioId: scenario.id },
      body: { ...SCENARIO, required: true, checks: [{ kind: "says", phrase: "transfer" }] },
    });
    expect(changed).toMatchObject({ required: true, checks: [{ kind: "says", phrase: "transfer" }] });
    const listed = await owner.call(api.listAgentTests, { params: { id } });
    expect(listed.scenarios.map((s) => s.id)).toEqual([scenario.id]);
    await owner.call(api.deleteAgentTest, { params: { id, scenarioId: scenario.id } });
    await expectRefusal(
      owner.call(api.deleteAgentTest, { params: { id, scenarioId: scenario.id } }),
      404,
      api.AGENT_TEST_MESSAGES.scenarioNotFound,
    );
  });

  it("refuses a scenario with neither lines nor a persona, without checks, an empty phrase and an unbounded latency", async () => {
    const id = world.accounts.A1.id;
    const create = (body: unknown) =>
      owner.call(api.createAgentTest, { params: { id }, body: body as typeof SCENARIO });
    await expectRefusal(
      create({ ...SCENARIO, lines: [], persona: " " }),
      400,
      /Write the caller's lines, or describe the caller and what they want/,
    );
    // A persona alone is a caller: it speaks for itself.
    const { scenario } = await create({ ...SCENARIO, lines: [], persona: "A patient asking about parking." });
    expect(scenario).toMatchObject({ lines: [], persona: "A patient asking about parking." });
    await owner.call(api.deleteAgentTest, { params: { id, scenarioId: scenario.id } });
    await expectRefusal(create({ ...SCENARIO, checks: [] }), 400, /Add at least one check/);
    await expectRefusal(
      create({ ...SCENARIO, checks: [{ kind: "says", phrase: " " }] }),
      400,
      /Enter a phrase/,
    );
    await expectRefusal(
      create({ ...SCENARIO, checks: [{ kind: "latency", measure: "p95", maxMs: 10_000_000 }] }),
      400,
    );
  });

  it("cannot run without a scenario", async () => {
    await expectRefusal(
      owner.call(api.runAgentTests, { params: { id: world.accounts.A1.id } }),
      400,
      api.AGENT_TEST_MESSAGES.noScenarios,
    );
  });

  it("never reach another tenant's agent, its scenarios or its runs", async () => {
    const theirs = testClient(app)(world.members.o2Owner.token);
    const a2 = world.accounts.A2.id;
    const { scenario } = await theirs.call(api.createAgentTest, { params: { id: a2 }, body: SCENARIO });
    const attempts = [
      () => owner.call(api.listAgentTests, { params: { id: a2 } }),
      () => owner.call(api.createAgentTest, { params: { id: a2 }, body: SCENARIO }),
      () => owner.call(api.updateAgentTest, { params: { id: a2, scenarioId: scenario.id }, body: SCENARIO }),
      () => owner.call(api.deleteAgentTest, { params: { id: a2, scenarioId: scenario.id } }),
      () => owner.call(api.runAgentTests, { params: { id: a2 } }),
      () => owner.call(api.getAgentTestRun, { params: { id: a2, runId: 1 } }),
      // Its own agent, the other's scenario: not found either.
      () =>
        owner.call(api.updateAgentTest, {
          params: { id: world.accounts.A1.id, scenarioId: scenario.id },
          body: SCENARIO,
        }),
    ];
    for (const attempt of attempts) {
      const refused = await expectRefusal(attempt(), 404);
      for (const mark of fingerprints(world.accounts.A2))
        expect(JSON.stringify(refused.body)).not.toContain(mark);
    }
    const still = await theirs.call(api.listAgentTests, { params: { id: a2 } });
    expect(still.scenarios).toEqual([expect.objectContaining({ id: scenario.id, name: SCENARIO.name })]);
  });
});
