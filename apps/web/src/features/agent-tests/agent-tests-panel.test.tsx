import type { TestResult, TestRun, TestScenario } from "@switchboard/api";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { signInAs } from "../../test/accounts.ts";
import { renderAt } from "../../test/render.tsx";
import { AgentTestsPanel } from "./agent-tests-panel.tsx";

// Issue 35 item 5: the agent editor's Tests panel.
const LOAD = { timeout: withinMs(15_000) };
const AGENT = 50;

const scenario: TestScenario = {
  id: 7,
  agentId: AGENT,
  name: "Never quotes a price",
  persona: "",
  lines: ["How much is a cleaning?"],
  checks: [{ kind: "neverSays", phrase: "$" }],
  required: true,
  createdAt: 1,
  updatedAt: 1,
};

const failed: TestResult = {
  scenarioId: 7,
  name: "Never quotes a price",
  required: true,
  revision: 3,
  verdict: "failed",
  checks: [
    { check: { kind: "neverSays", phrase: "$" }, passed: false, detail: "Said “$”: “A cleaning is $120.”" },
  ],
  transcript: [
    { role: "caller", text: "how much is a cleaning" },
    { role: "agent", text: "A cleaning is $120." },
  ],
  timings: { durationMs: 9000, greetingMs: 400, answerMs: [850], p95Ms: 850 },
  conversationUuid: "c-1",
  error: null,
};

const run = (patch: Partial<TestRun>): TestRun => ({
  id: 1,
  agentId: AGENT,
  revision: 3,
  status: "running",
  total: 1,
  done: 0,
  passed: 0,
  failed: 0,
  error: null,
  note: "Judged on the sandbox model: …",
  startedAt: 1,
  finishedAt: null,
  results: [],
  ...patch,
});

beforeEach(() => window.localStorage.clear());

describe("the Tests panel", () => {
  it("says there are no scenarios yet, and cannot run without one", async () => {
    signInAs(undefined, {
      [`GET /api/v2/agents/${AGENT}/tests`]: () => ({ success: true, revision: 1, scenarios: [], runs: [] }),
    });
    renderAt("/", <AgentTestsPanel agentId={AGENT} />);
    expect(await screen.findByText(/No test scenarios yet/, undefined, LOAD)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Run tests" }).hasAttribute("disabled")).toBe(true);
  });

  it("runs the tests, shows progress while they go, then each verdict with its reason and transcript", async () => {
    let state: "idle" | "running" | "done" = "idle";
    const calls = signInAs(undefined, {
      [`GET /api/v2/agents/${AGENT}/tests`]: () => {
        // The first answer after the run starts shows it running; the next, its end.
        const runs =
          state === "idle"
            ? []
            : state === "running"
              ? [run({})]
              : [run({ status: "done", done: 1, failed: 1, finishedAt: 2, results: [failed] })];
        if (state === "running") state = "done";
        return { success: true, revision: 3, scenarios: [scenario], runs };
      },
      [`POST /api/v2/agents/${AGENT}/tests/run`]: () => {
        state = "running";
        return { success: true, run: run({}) };
      },
    });
    renderAt("/", <AgentTestsPanel agentId={AGENT} />);
    expect(await screen.findByText("Never quotes a price", undefined, LOAD)).toBeTruthy();
    expect(screen.getByText("Not run")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Run tests" }));
    expect(await screen.findByText("Running: 0 of 1 scenarios done", undefined, LOAD)).toBeTruthy();
    expect(await screen.findByText(/0 passed, 1 failed/, undefined, LOAD)).toBeTruthy();
    expect(screen.getAllByText("Failed").length).toBeGreaterThan(0);
    expect(screen.getByText(/Never says “\$”: Said “\$”: “A cleaning is \$120.”/)).toBeTruthy();
    // The transcript: who said what.
    expect(screen.getByText("Transcript")).toBeTruthy();
    expect(screen.getByText("how much is a cleaning", { exact: false }).textContent).toBe(
      "Caller: how much is a cleaning",
    );
    expect(screen.getByText(/Judged on the sandbox model/)).toBeTruthy();
    expect(calls.filter((call) => call.method === "POST")).toHaveLength(1);
  });

  /** An agent without scenarios, its panel open at the new-scenario form; the requests it made. */
  async function openNewScenario() {
    const calls = signInAs(undefined, {
      [`GET /api/v2/agents/${AGENT}/tests`]: () => ({ success: true, revision: 1, scenarios: [], runs: [] }),
      [`POST /api/v2/agents/${AGENT}/tests`]: (call) => ({
        success: true,
        scenario: { ...scenario, ...(call.body as object) },
      }),
    });
    renderAt("/", <AgentTestsPanel agentId={AGENT} />);
    fireEvent.click(await screen.findByRole("button", { name: "Add scenario" }, LOAD));
    return calls;
  }

  it("adds a scenario with the checks filled in", async () => {
    const calls = await openNewScenario();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: "Books for Tuesday" } });
    fireEvent.change(screen.getByLabelText("What the caller says"), {
      target: { value: "I'd like to book a cleaning\nTuesday at 10am please" },
    });
    fireEvent.change(screen.getByLabelText("Must never say"), { target: { value: "$" } });
    fireEvent.click(screen.getByRole("button", { name: "Save scenario" }));
    await waitFor(() => expect(calls.some((call) => call.method === "POST")).toBe(true), LOAD);
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "Books for Tuesday",
      persona: "",
      lines: ["I'd like to book a cleaning", "Tuesday at 10am please"],
      checks: [{ kind: "neverSays", phrase: "$" }],
      required: true,
    });
  });

  it("takes a described caller without lines, and says what is missing when there is neither", async () => {
    const calls = await openNewScenario();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: "Asks the price" } });
    fireEvent.change(screen.getByLabelText("Must say"), { target: { value: "front desk" } });
    fireEvent.click(screen.getByRole("button", { name: "Save scenario" }));
    expect(
      await screen.findByText(
        "Write the caller's lines, or describe the caller and what they want.",
        {},
        LOAD,
      ),
    ).toBeTruthy();
    expect(calls.some((call) => call.method === "POST")).toBe(false);
    fireEvent.change(screen.getByLabelText("Caller"), {
      target: { value: "A new patient asking how much a cleaning is." },
    });
    fireEvent.click(screen.getByRole("button", { name: "Save scenario" }));
    await waitFor(() => expect(calls.some((call) => call.method === "POST")).toBe(true), LOAD);
    expect(calls.find((call) => call.method === "POST")?.body).toMatchObject({
      persona: "A new patient asking how much a cleaning is.",
      lines: [],
    });
  });
});
