import { describe, expect, it } from "vitest";
import { createOnboardingState, fromPersisted, pickLatestPersisted, toPersisted } from "./state.ts";

describe("persisted onboarding", () => {
  it("never includes the skip flags and stamps updatedAt in epoch seconds", () => {
    const state = createOnboardingState({ skipTimezoneStep: true, skipVoiceStep: true, timezone: "UTC" });
    const persisted = toPersisted(state, 1_700_000_123_456);
    expect(persisted).not.toHaveProperty("skipTimezoneStep");
    expect(persisted).not.toHaveProperty("skipVoiceStep");
    expect(persisted.updatedAt).toBe(1_700_000_123);
    expect(persisted.timezone).toBe("UTC");
    expect(toPersisted({ ...state, updatedAt: 5 }).updatedAt).toBe(5);
  });

  it("reads saved data defensively", () => {
    expect(fromPersisted(null)).toEqual(createOnboardingState());
    expect(
      fromPersisted({
        method: "BUILD_FROM_TEMPLATE",
        templateId: 12,
        templateFields: [{ key: "a", value: 1 }, { nope: true }, "x"],
        templateIntegrations: ["crm", 3],
        connectedIntegrations: { crm: true, bad: "yes" },
        activeStep: "SETUP_TEMPLATE",
        fieldIndex: 2,
        integrationIndex: -1,
        timezone: "UTC",
        agentVoice: "",
        skipTimezoneStep: true,
        onboardingComplete: true,
        updatedAt: 1_700_000_000_999,
      }),
    ).toEqual(
      createOnboardingState({
        method: "BUILD_FROM_TEMPLATE",
        templateId: "12",
        templateFields: [{ key: "a", value: 1 }],
        templateIntegrations: ["crm"],
        connectedIntegrations: { crm: true },
        activeStep: "SETUP_TEMPLATE",
        fieldIndex: 2,
        timezone: "UTC",
        onboardingComplete: true,
        updatedAt: 1_700_000_000,
      }),
    );
    expect(fromPersisted({ method: "HACK", activeStep: "NOPE" })).toEqual(createOnboardingState());
  });

  it("picks the copy updated last", () => {
    const older = { updatedAt: 100 };
    const newer = { updatedAt: 200 };
    expect(pickLatestPersisted(older, newer)).toBe(newer);
    expect(pickLatestPersisted(newer, older)).toBe(newer);
    expect(pickLatestPersisted(older, { updatedAt: 100 })).toBe(older);
    expect(pickLatestPersisted(undefined, older)).toBe(older);
    expect(pickLatestPersisted(older, "junk")).toBe(older);
    expect(pickLatestPersisted({ updatedAt: 150_000_000_000 }, { updatedAt: 160_000_000 })).toEqual({
      updatedAt: 160_000_000,
    });
  });
});
