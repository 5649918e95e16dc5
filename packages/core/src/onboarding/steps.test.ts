import { describe, expect, it } from "vitest";
import { resolveStepAlias, stepFromQuery } from "./steps.ts";

describe("onboarding steps", () => {
  it.each([
    ["templates", "SELECT_TEMPLATE"],
    ["fields", "SETUP_TEMPLATE"],
    ["setupAgent", "SETUP_TEMPLATE"],
    ["integrations", "SETUP_INTEGRATIONS"],
    ["generate", "GENERATE_AGENT"],
    ["generateAgent", "GENERATE_AGENT"],
    ["agentVoice", "SELECT_VOICE"],
    ["selectVoice", "SELECT_VOICE"],
    ["timezone", "SELECT_TIMEZONE"],
    ["selectTimezone", "SELECT_TIMEZONE"],
    ["editAgent", "EDIT_AGENT"],
    ["tryAgent", "TEST_AGENT"],
    ["testAgent", "TEST_AGENT"],
    ["chooseNumber", "CHOOSE_NUMBER"],
    ["scheduleCall", "SCHEDULE_CALL"],
    ["talkWithExpert", "SCHEDULE_CALL"],
    ["initial", "WELCOME"],
    ["CHOOSE_NUMBER", "CHOOSE_NUMBER"],
    ["somethingElse", "somethingElse"],
    ["toString", "toString"],
  ])("activeStep %s resolves to %s", (alias, step) => {
    expect(resolveStepAlias(alias)).toBe(step);
  });

  it("reads a step from the query only when it names one", () => {
    expect(stepFromQuery("tryAgent")).toBe("TEST_AGENT");
    expect(stepFromQuery("EDIT_AGENT")).toBe("EDIT_AGENT");
    expect(stepFromQuery("somethingElse")).toBeNull();
    expect(stepFromQuery(null)).toBeNull();
  });
});
