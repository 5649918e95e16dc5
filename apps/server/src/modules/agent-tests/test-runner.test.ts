import { describe, expect, it } from "vitest";
import type { ScenarioCallResult } from "../voice/index.ts";
import { runScenario } from "./test-runner.ts";

/** A scenario's verdict from a stand-in call: what the runner makes of how the call ended. */

const run = { revision: 3, agentAccountId: 7 };
const scenario = {
  id: 1,
  name: "Books a cleaning",
  required: true,
  lines: [],
  persona: "Ann Lee wants to book a cleaning on Tuesday.",
  checks: [{ kind: "says", phrase: "Tuesday" }],
};

function callEnding(patch: Partial<ScenarioCallResult>): ScenarioCallResult {
  return {
    summary: {
      outcome: "caller-hangup",
      conversationUuid: null,
      error: null,
      turns: [],
      bargeIns: 0,
      recordingUrl: null,
    },
    greetingMs: 400,
    durationMs: 2000,
    linesSaid: 0,
    callerFailed: null,
    ...patch,
  };
}

function verdictOf(call: ScenarioCallResult) {
  return runScenario(
    { call: async () => call, messagesOf: async () => [] },
    run,
    scenario,
    AbortSignal.timeout(5000),
  );
}

describe("a scenario's verdict", () => {
  it("is an error, saying why, when the simulated caller could not go on (its persona's model failed)", async () => {
    const result = await verdictOf(callEnding({ callerFailed: "connect ECONNREFUSED 127.0.0.1:9" }));
    expect(result).toMatchObject({
      verdict: "error",
      checks: [],
      error: "The simulated caller could not go on: connect ECONNREFUSED 127.0.0.1:9",
    });
  });

  it("judges the checks when the call ended normally", async () => {
    const result = await verdictOf(callEnding({}));
    expect(result.verdict).toBe("failed");
    expect(result.error).toBeNull();
    expect(result.checks).toHaveLength(1);
  });
});
