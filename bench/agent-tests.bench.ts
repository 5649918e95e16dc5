// Agent test suites (issue 35 item 5): wall time of one run of S scenarios of T caller turns each against one
// agent with the sandbox model and offline speech, each scenario a real call through the voice pipeline with
// the simulated caller (in real time, 20 ms a frame), and the calls per minute that makes on this machine.
// S = 20, T = 4 (BENCH_SIZE=smoke: 2 and 2). No target: a run is bound by the calls' real time (each turn is
// the caller's line, the agent's answer and the pause after it), so its ratio says little of the machine.

import * as api from "@switchboard/api";
import { buildApp } from "../apps/server/src/app.ts";
import { openPglite } from "../apps/server/src/db/client.ts";
import { agentTestRunJob } from "../apps/server/src/modules/agent-tests/jobs.ts";
import { testClient } from "../apps/server/test/api-client.ts";
import { buildHierarchy } from "../apps/server/test/fixtures.ts";
import { testConfig } from "../apps/server/test/helpers.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const SCENARIOS = SMOKE ? 2 : 20;
const TURNS = SMOKE ? 2 : 4;
const QUESTIONS = [
  "How much is a cleaning?",
  "Do you see children?",
  "Do you offer teeth whitening?",
  "Where are you located?",
];

const app = await buildApp(testConfig(), { database: await openPglite() });
try {
  const world = await buildHierarchy(app);
  const agentId = world.accounts.A1.id;
  const owner = testClient(app)(world.members.o1Owner.token);
  await owner.call(api.saveCampaign, {
    body: {
      agentId,
      greeting: "Thanks for calling Bluebird Dental.",
      agentInstructions: [
        "You answer the phone for Bluebird Dental.",
        "Q: How much is a cleaning?",
        "A: Our front desk gives you a quote when you visit.",
        "Q: Do you see children?",
        "A: Yes, we see children from age 3.",
        "Q: Do you offer teeth whitening?",
        "A: Yes, in-office whitening takes about an hour.",
        "Q: Where are you located?",
        "A: We are at 12 Harbour Street, Portland.",
      ].join("\n"),
    },
  });
  for (let index = 0; index < SCENARIOS; index++)
    await owner.call(api.createAgentTest, {
      params: { id: agentId },
      body: {
        name: `Scenario ${index + 1}`,
        persona: "",
        lines: Array.from({ length: TURNS }, (_, turn) => QUESTIONS[(index + turn) % QUESTIONS.length] ?? ""),
        checks: [{ kind: "neverSays", phrase: "$" }],
        required: false,
      },
    });
  const started = performance.now();
  const { run } = await owner.call(api.runAgentTests, { params: { id: agentId } });
  await app.context.jobs.idle([agentTestRunJob], SCENARIOS * 5 * 60_000);
  const wallMs = performance.now() - started;
  const { run: ended } = await owner.call(api.getAgentTestRun, { params: { id: agentId, runId: run.id } });
  console.log(
    `${SCENARIOS} scenarios × ${TURNS} turns: ${ended.passed} passed, ${ended.failed} failed (${ended.status}) in ${(wallMs / 1000).toFixed(1)} s`,
  );
  if (ended.done !== SCENARIOS) throw new Error(`only ${ended.done} of ${SCENARIOS} scenarios ran`);
  reportFigure({
    bench: "agent-tests",
    name: "run wall time",
    value: wallMs / 1000,
    unit: "s",
    better: "lower",
  });
  reportFigure({
    bench: "agent-tests",
    name: "calls per minute",
    value: SCENARIOS / (wallMs / 60_000),
    unit: "calls/min",
    better: "higher",
  });
} finally {
  await app.close();
}
