import {
  createOnboardingState,
  ONBOARDING_SAVE_DEBOUNCE_MS,
  type OnboardingEnv,
  type OnboardingTemplate,
} from "@switchboard/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createOnboardingController } from "./onboarding-controller.ts";
import { createSettingsSaver, type SavedOnboarding } from "./onboarding-persistence.ts";
import { onboardingQueryOf, searchWithOnboardingStep, searchWithoutOnboarding } from "./onboarding-query.ts";

const salon: OnboardingTemplate = {
  id: "7",
  templateFields: [
    { key: "businessName", type: "text" },
    { key: "hasWebsite", type: "select", options: [{ value: "yes" }, { value: "no" }], value: "no" },
    { key: "website", type: "text", disabledIf: "hasWebsite=no" },
    { key: "greeting", type: "text", placeholder: "Welcome to {businessName}" },
  ],
  templateIntegrations: ["crm"],
};

function setup(
  options: { search?: string; env?: Partial<OnboardingEnv>; save?: () => Promise<unknown> } = {},
) {
  let search = options.search ?? "?onboard=true";
  const saves: SavedOnboarding[] = [];
  const save = vi.fn(async (value: SavedOnboarding) => {
    saves.push(value);
    return options.save?.();
  });
  const storage = new Map<string, string>();
  const left = vi.fn(() => {
    search = searchWithoutOnboarding(search);
  });
  const refreshed = vi.fn(async () => undefined);
  const booked = vi.fn();
  const controller = createOnboardingController({
    env: () => ({ now: Date.now(), canUseFullEditor: true, ...options.env }),
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
    },
    saver: createSettingsSaver(save),
    search: () => search,
    replaceSearch: (next) => {
      search = next;
    },
    leave: left,
    refreshPermissions: refreshed,
    openBookingPage: booked,
  });
  return {
    controller,
    saves,
    save,
    left,
    refreshed,
    booked,
    search: () => search,
    setSearch: (next: string) => {
      search = next;
      controller.dispatch({ type: "queryChanged", query: onboardingQueryOf(next) });
    },
    local: () => JSON.parse(storage.get("onboarding") ?? "null") as SavedOnboarding | null,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2025-05-01T12:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("query <-> state", () => {
  it("reads the four keys and writes steps without touching other keys", () => {
    expect(onboardingQueryOf("?onboard=true&activeStep=fields&fieldIndex=2&help=true")).toEqual({
      onboard: "true",
      activeStep: "fields",
      fieldIndex: "2",
      integrationIndex: null,
    });
    expect(
      searchWithOnboardingStep("?help=true&onboard=true&fieldIndex=2", {
        activeStep: "SELECT_VOICE",
        fieldIndex: null,
        integrationIndex: null,
      }),
    ).toBe("?help=true&onboard=true&activeStep=SELECT_VOICE");
    expect(searchWithoutOnboarding("?onboard=true&activeStep=X&fieldIndex=1&integrationIndex=0&a=1")).toBe(
      "?a=1",
    );
  });

  it("opening without a step shows WELCOME and writes it into the address", () => {
    const t = setup();
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    expect(t.controller.getSnapshot().state.activeStep).toBe("WELCOME");
    t.controller.start();
    expect(t.search()).toBe("?onboard=true&activeStep=WELCOME");
  });

  it("an alias in the address opens its step, and the address then names the step itself", () => {
    const t = setup({ search: "?onboard=true&activeStep=templates" });
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.start();
    expect(t.controller.getSnapshot().state.activeStep).toBe("SELECT_TEMPLATE");
    expect(t.search()).toBe("?onboard=true&activeStep=SELECT_TEMPLATE");
  });

  it("without the full editor the wizard starts at SELECT_TEMPLATE", () => {
    const t = setup({ env: { canUseFullEditor: false } });
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    expect(t.controller.getSnapshot().state).toMatchObject({
      activeStep: "SELECT_TEMPLATE",
      method: "BUILD_FROM_TEMPLATE",
    });
  });

  it("choosing a template moves the address to the first field asked (fieldIndex), then the next ones", () => {
    const t = setup();
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.start();
    t.controller.dispatch({ type: "selectMethod", method: "BUILD_FROM_TEMPLATE" });
    t.controller.dispatch({ type: "selectTemplate", template: salon });
    expect(onboardingQueryOf(t.search())).toMatchObject({ activeStep: "SETUP_TEMPLATE", fieldIndex: "0" });
    t.controller.dispatch({ type: "next" });
    expect(onboardingQueryOf(t.search()).fieldIndex).toBe("1");
    // website is disabled while hasWebsite=no: skipped.
    t.controller.dispatch({ type: "next" });
    expect(onboardingQueryOf(t.search()).fieldIndex).toBe("3");
    t.controller.dispatch({ type: "next" });
    expect(onboardingQueryOf(t.search())).toMatchObject({
      activeStep: "SETUP_INTEGRATIONS",
      fieldIndex: null,
      integrationIndex: "0",
    });
  });

  it("the address moving (browser Back) moves the wizard", () => {
    const t = setup();
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.dispatch({ type: "selectMethod", method: "BUILD_FROM_TEMPLATE" });
    t.controller.dispatch({ type: "selectTemplate", template: salon });
    t.setSearch("?onboard=true&activeStep=timezone");
    expect(t.controller.getSnapshot().state.activeStep).toBe("SELECT_TIMEZONE");
  });

  it("the onboard key disappearing resets the state, saves at once and removes the other keys", async () => {
    const t = setup();
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.dispatch({ type: "selectMethod", method: "BUILD_FROM_TEMPLATE" });
    t.controller.dispatch({ type: "selectTemplate", template: salon });
    t.controller.setAgentId(12);
    t.setSearch("?activeStep=SETUP_TEMPLATE&fieldIndex=0");
    expect(t.left).toHaveBeenCalledTimes(1);
    expect(t.search()).toBe("");
    expect(t.controller.getSnapshot()).toMatchObject({ agentId: null, state: { templateId: null } });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.saves.at(-1)).toMatchObject({ templateId: null, agentId: null, activeStep: "WELCOME" });
  });
});

describe("persistence", () => {
  it("writes local storage at once and saves settings 1000 ms after the last update", async () => {
    const t = setup();
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.dispatch({ type: "selectMethod", method: "BUILD_FROM_TEMPLATE" });
    t.controller.dispatch({ type: "selectTemplate", template: salon });
    t.controller.dispatch({ type: "setFieldValue", key: "businessName", value: "Bella" });
    expect(t.local()?.templateFields[0]?.value).toBe("Bella");
    expect(t.local()?.updatedAt).toBe(Math.floor(Date.now() / 1000));
    await vi.advanceTimersByTimeAsync(ONBOARDING_SAVE_DEBOUNCE_MS - 1);
    t.controller.dispatch({ type: "setFieldValue", key: "businessName", value: "Bella Hair" });
    await vi.advanceTimersByTimeAsync(ONBOARDING_SAVE_DEBOUNCE_MS - 1);
    expect(t.save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.save).toHaveBeenCalledTimes(1);
    expect(t.saves[0]?.templateFields[0]?.value).toBe("Bella Hair");
    // The skip flags are never saved.
    expect(t.saves[0]).not.toHaveProperty("skipTimezoneStep");
  });

  it("exit and discard saves at once, keeps the complete flag and leaves", async () => {
    const t = setup();
    t.controller.init(
      { onboardingComplete: true, activeStep: "SELECT_VOICE" },
      { onboard: "true", activeStep: "SELECT_VOICE" },
    );
    t.controller.dispatch({ type: "selectTemplate", template: salon });
    t.controller.dispatch({ type: "exitAndDiscard" });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.save).toHaveBeenCalledTimes(1);
    expect(t.saves[0]).toMatchObject({ onboardingComplete: true, templateId: null, activeStep: "WELCOME" });
    expect(t.left).toHaveBeenCalledTimes(1);
  });

  it("complete saves at once, then refreshes the permissions, and leaves", async () => {
    const t = setup({ search: "?onboard=true&activeStep=SCHEDULE_CALL" });
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.dispatch({ type: "next" });
    expect(t.left).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.saves).toHaveLength(1);
    expect(t.saves[0]?.onboardingComplete).toBe(true);
    expect(t.refreshed).toHaveBeenCalledTimes(1);
  });

  it("mark as complete saves at once without leaving", async () => {
    const t = setup({ search: "?onboard=true&activeStep=TEST_AGENT" });
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.dispatch({ type: "markComplete" });
    await vi.advanceTimersByTimeAsync(0);
    expect(t.saves[0]?.onboardingComplete).toBe(true);
    expect(t.left).not.toHaveBeenCalled();
    expect(t.controller.getSnapshot().state.activeStep).toBe("TEST_AGENT");
  });

  it("a failed settings save is swallowed; the local state still moves on", async () => {
    const t = setup({ save: () => Promise.reject(new Error("offline")) });
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.dispatch({ type: "selectMethod", method: "BUILD_FROM_TEMPLATE" });
    await vi.advanceTimersByTimeAsync(ONBOARDING_SAVE_DEBOUNCE_MS);
    expect(t.save).toHaveBeenCalledTimes(1);
    t.controller.dispatch({ type: "selectTemplate", template: salon });
    expect(t.controller.getSnapshot().state.activeStep).toBe("SETUP_TEMPLATE");
    expect(t.local()?.templateId).toBe("7");
  });

  it("the agent the wizard made is saved with the state and resumed from it", () => {
    const t = setup();
    t.controller.init(undefined, onboardingQueryOf(t.search()));
    t.controller.setAgentId(31);
    expect(t.local()?.agentId).toBe(31);
    const again = setup({ search: "?onboard=true&activeStep=EDIT_AGENT" });
    again.controller.init(t.local(), onboardingQueryOf(again.search()));
    expect(again.controller.getSnapshot()).toMatchObject({
      agentId: 31,
      state: { activeStep: "EDIT_AGENT" },
    });
  });

  it("a completed wizard opened again without a step starts over", () => {
    const t = setup();
    t.controller.init(
      { ...createOnboardingState({ onboardingComplete: true, activeStep: "SCHEDULE_CALL" }), agentId: 4 },
      onboardingQueryOf(t.search()),
    );
    expect(t.controller.getSnapshot()).toMatchObject({
      agentId: null,
      state: { activeStep: "SELECT_TEMPLATE", onboardingComplete: true },
    });
  });

  it("the booking page opens in a new tab, or with the in-app opener inside the mobile app", () => {
    const web = setup({ search: "?onboard=true&activeStep=SCHEDULE_CALL" });
    web.controller.init(undefined, onboardingQueryOf(web.search()));
    web.controller.dispatch({ type: "openBookingPage" });
    expect(web.booked).toHaveBeenCalledWith("newTab");
    const app = setup({ search: "?onboard=true&activeStep=SCHEDULE_CALL", env: { isMobileApp: true } });
    app.controller.init(undefined, onboardingQueryOf(app.search()));
    app.controller.dispatch({ type: "openBookingPage" });
    expect(app.booked).toHaveBeenCalledWith("inAppUrlOpener");
  });
});
