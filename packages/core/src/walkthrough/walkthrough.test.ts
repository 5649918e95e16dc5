import { describe, expect, it } from "vitest";
import {
  autoCompleteWalkthrough,
  finishWalkthroughStep,
  isWalkthroughComplete,
  readWalkthrough,
  startNextWalkthroughStep,
  startWalkthrough,
  toWalkthroughSettings,
  WALKTHROUGH_STEPS,
  type WalkthroughState,
} from "./walkthrough.ts";

const fresh = (): WalkthroughState => ({ version: null, completed: [], activeStep: null });

describe("walkthrough", () => {
  it("starting stores version 1 if none and starts the first step", () => {
    expect(startWalkthrough(fresh())).toEqual({ version: 1, completed: [], activeStep: "SETUP_AGENT" });
    expect(startWalkthrough({ version: 3, completed: ["SETUP_AGENT"], activeStep: null })).toEqual({
      version: 3,
      completed: ["SETUP_AGENT"],
      activeStep: "TEST_AGENT",
    });
  });

  it("startNext starts the first incomplete step, in step order", () => {
    const state: WalkthroughState = {
      version: 1,
      completed: ["TEST_AGENT", "SETUP_AGENT"],
      activeStep: null,
    };
    expect(startNextWalkthroughStep(state).activeStep).toBe("ADD_NUMBER");
    const gapped: WalkthroughState = { version: 1, completed: ["ADD_NUMBER"], activeStep: null };
    expect(startNextWalkthroughStep(gapped).activeStep).toBe("SETUP_AGENT");
    const done: WalkthroughState = { version: 1, completed: [...WALKTHROUGH_STEPS], activeStep: null };
    expect(startNextWalkthroughStep(done)).toBe(done);
    expect(isWalkthroughComplete(done)).toBe(true);
  });

  it("finishing a step adds it once", () => {
    const started = startWalkthrough(fresh());
    const once = finishWalkthroughStep(started, "SETUP_AGENT");
    expect(once).toEqual({ version: 1, completed: ["SETUP_AGENT"], activeStep: null });
    expect(finishWalkthroughStep(once, "SETUP_AGENT")).toBe(once);
    expect(finishWalkthroughStep(once, "FORWARD_CALLS").completed).toEqual(["SETUP_AGENT", "FORWARD_CALLS"]);
  });

  it.each<[string, Parameters<typeof autoCompleteWalkthrough>[1], string[]]>([
    ["a phone number", { phoneNumber: "+15551234567" }, ["SETUP_AGENT", "TEST_AGENT", "ADD_NUMBER"]],
    [
      "a phone number and a legacy account",
      { phoneNumber: "+15551234567", timestamp: 0 },
      ["SETUP_AGENT", "TEST_AGENT", "ADD_NUMBER"],
    ],
    ["onboarding complete", { onboardingComplete: true, timestamp: 1_800_000_000_000 }, ["SETUP_AGENT"]],
    ["a legacy account", { timestamp: 1_692_075_599_999 }, ["SETUP_AGENT"]],
    ["a legacy account (date text)", { timestamp: "2023-01-01T00:00:00Z" }, ["SETUP_AGENT"]],
    ["an account created at the cutoff", { timestamp: 1_692_075_600_000 }, []],
    ["a blank phone number", { phoneNumber: "  ", timestamp: 1_800_000_000_000 }, []],
    ["nothing known", {}, []],
  ])("auto-completes for %s", (_, account, completed) => {
    expect(autoCompleteWalkthrough(fresh(), account).completed).toEqual(completed);
  });

  it("auto-completion keeps what is done and is idempotent", () => {
    const state: WalkthroughState = {
      version: 1,
      completed: ["FORWARD_CALLS", "TEST_AGENT"],
      activeStep: "SETUP_AGENT",
    };
    const after = autoCompleteWalkthrough(state, { phoneNumber: "+1555" });
    expect(after).toEqual({
      version: 1,
      completed: ["FORWARD_CALLS", "TEST_AGENT", "SETUP_AGENT", "ADD_NUMBER"],
      activeStep: null,
    });
    expect(autoCompleteWalkthrough(after, { phoneNumber: "+1555" })).toBe(after);
  });

  it("reads account timestamps as ms, date text or dates", () => {
    expect(autoCompleteWalkthrough(fresh(), { timestamp: new Date(0) }).completed).toEqual(["SETUP_AGENT"]);
    expect(autoCompleteWalkthrough(fresh(), { timestamp: "not a date" }).completed).toEqual([]);
    expect(autoCompleteWalkthrough(fresh(), { timestamp: null }).completed).toEqual([]);
  });

  it("reads and writes the stored settings", () => {
    expect(readWalkthrough({ version: 1, completed: ["SETUP_AGENT", "BOGUS", "SETUP_AGENT"] })).toEqual({
      version: 1,
      completed: ["SETUP_AGENT"],
      activeStep: null,
    });
    expect(readWalkthrough(undefined)).toEqual(fresh());
    expect(
      toWalkthroughSettings({ version: 1, completed: ["ADD_NUMBER"], activeStep: "SETUP_AGENT" }),
    ).toEqual({
      version: 1,
      completed: ["ADD_NUMBER"],
    });
    expect(toWalkthroughSettings(fresh())).toEqual({ completed: [] });
  });
});
