import { describe, expect, it } from "vitest";
import {
  type OnboardingAction,
  type OnboardingEffect,
  type OnboardingEnv,
  onboardingReducer,
  onboardingTransition,
} from "./machine.ts";
import { createOnboardingState, type OnboardingState, toPersisted } from "./state.ts";
import type { OnboardingTemplate, TemplateField } from "./template-fields.ts";

const NOW = 1_717_000_000_000;
const env = (overrides: Partial<OnboardingEnv> = {}): OnboardingEnv => ({
  now: NOW,
  canUseFullEditor: true,
  ...overrides,
});
const state = (overrides: Partial<OnboardingState> = {}) => createOnboardingState(overrides);
const step = (from: OnboardingState, action: OnboardingAction, context = env()) =>
  onboardingReducer(from, action, context).activeStep;

const salonFields: TemplateField[] = [
  { key: "businessName", type: "text" },
  { key: "hasWebsite", type: "select", options: ["yes", "no"], value: "no" },
  { key: "website", type: "text", disabledIf: "hasWebsite=no" },
  { key: "greeting", type: "text", placeholder: "Welcome to {businessName}" },
];
const salon: OnboardingTemplate = { id: "salon", templateFields: salonFields, templateIntegrations: ["crm"] };
const allSkipped = (integrations: string[]): OnboardingTemplate => ({
  id: "skip",
  templateFields: [
    { key: "a", autoPrefilled: true },
    { key: "b", disabledIf: "a=1" },
    { key: "c", autoPrefilled: true, value: "1" },
  ].map((field, index) => (index === 0 ? { ...field, value: "1" } : field)),
  templateIntegrations: integrations,
});
const chosen = (overrides: Partial<OnboardingState> = {}) =>
  onboardingReducer(
    state({ method: "BUILD_FROM_TEMPLATE", activeStep: "SELECT_TEMPLATE", ...overrides }),
    { type: "selectTemplate", template: salon },
    env(),
  );

describe("method choice", () => {
  it.each([
    ["BUILD_FROM_SCRATCH", "GENERATE_AGENT"],
    ["BUILD_FROM_TEMPLATE", "SELECT_TEMPLATE"],
  ] as const)("%s goes to %s", (method, next) => {
    const after = onboardingReducer(state(), { type: "selectMethod", method }, env());
    expect(after).toMatchObject({ method, activeStep: next });
  });

  it("building from scratch is refused without the full editor", () => {
    const before = state({ activeStep: "SELECT_TEMPLATE", method: "BUILD_FROM_TEMPLATE" });
    expect(
      onboardingReducer(
        before,
        { type: "selectMethod", method: "BUILD_FROM_SCRATCH" },
        env({ canUseFullEditor: false }),
      ),
    ).toBe(before);
  });
});

describe("template selection", () => {
  it("sets the fields, resets connected integrations and moves to the first active field", () => {
    const after = chosen({ connectedIntegrations: { old: true } });
    expect(after).toMatchObject({
      templateId: "salon",
      method: "BUILD_FROM_TEMPLATE",
      templateIntegrations: ["crm"],
      connectedIntegrations: {},
      activeStep: "SETUP_TEMPLATE",
      fieldIndex: 0,
    });
    expect(after.templateFields.map((field) => field.key)).toEqual([
      "businessName",
      "hasWebsite",
      "website",
      "greeting",
    ]);
  });

  it("starts at the first field that is neither disabled nor auto-prefilled", () => {
    const template: OnboardingTemplate = {
      id: "t",
      templateFields: [
        { key: "x", autoPrefilled: true },
        { key: "y", disabledIf: "z=on" },
        { key: "z", value: "on" },
      ],
    };
    expect(onboardingReducer(state(), { type: "selectTemplate", template }, env())).toMatchObject({
      activeStep: "SETUP_TEMPLATE",
      fieldIndex: 2,
    });
  });

  it.each<[string, string[], Partial<OnboardingEnv["prefill"]>, string]>([
    ["integrations", ["crm"], {}, "SETUP_INTEGRATIONS"],
    ["no integrations", [], {}, "SELECT_TIMEZONE"],
    ["no integrations, timezone skipped", [], { skipTimezoneStep: true }, "SELECT_VOICE"],
    ["no integrations, both skipped", [], { skipTimezoneStep: true, skipVoiceStep: true }, "GENERATE_AGENT"],
    ["only skipped integrations", ["crm"], { integrationsToSkip: ["crm"] }, "SELECT_TIMEZONE"],
  ])("with every field skipped and %s goes to %s", (_, integrations, prefill, next) => {
    const context = env({ prefill: prefill ?? {} });
    const start = onboardingReducer(state(), { type: "init" }, context);
    expect(step(start, { type: "selectTemplate", template: allSkipped(integrations) }, context)).toBe(next);
  });

  it("a schedule action brings the calendar integration", () => {
    const after = onboardingReducer(
      state(),
      { type: "selectTemplate", template: { ...allSkipped([]), actions: [{ name: "schedule" }] } },
      env(),
    );
    expect(after).toMatchObject({
      activeStep: "SETUP_INTEGRATIONS",
      templateIntegrations: ["calendar"],
      integrationIndex: 0,
    });
  });
});

describe("fields and integrations", () => {
  it("finishing the fields skips disabled ones and follows the same order", () => {
    let current = chosen();
    current = onboardingReducer(
      current,
      { type: "setFieldValue", key: "businessName", value: "Acme" },
      env(),
    );
    current = onboardingReducer(current, { type: "next" }, env());
    expect(current.fieldIndex).toBe(1);
    current = onboardingReducer(current, { type: "next" }, env());
    expect(current.fieldIndex).toBe(3);
    current = onboardingReducer(current, { type: "next" }, env());
    expect(current).toMatchObject({ activeStep: "SETUP_INTEGRATIONS", integrationIndex: 0 });
    current = onboardingReducer(
      current,
      { type: "setIntegrationConnected", integration: "crm", connected: true },
      env(),
    );
    expect(current.connectedIntegrations).toEqual({ crm: true });
    current = onboardingReducer(current, { type: "next" }, env());
    expect(current.activeStep).toBe("SELECT_TIMEZONE");
  });

  it("a field enabled by a value is visited", () => {
    let current = onboardingReducer(
      chosen(),
      { type: "setFieldValue", key: "hasWebsite", value: "yes" },
      env(),
    );
    current = onboardingReducer({ ...current, fieldIndex: 1 }, { type: "next" }, env());
    expect(current.fieldIndex).toBe(2);
  });

  it("back walks fields, integrations and steps in reverse, skipping what forward skips", () => {
    const atIntegrations = state({ ...chosen(), activeStep: "SETUP_INTEGRATIONS", integrationIndex: 0 });
    expect(onboardingReducer(atIntegrations, { type: "back" }, env())).toMatchObject({
      activeStep: "SETUP_TEMPLATE",
      fieldIndex: 3,
    });
    const atField3 = { ...chosen(), fieldIndex: 3 };
    expect(onboardingReducer(atField3, { type: "back" }, env()).fieldIndex).toBe(1);
    expect(step({ ...chosen(), fieldIndex: 0 }, { type: "back" })).toBe("SELECT_TEMPLATE");
    expect(step(state({ activeStep: "SELECT_TEMPLATE" }), { type: "back" })).toBe("WELCOME");
    const noFullEditor = state({ activeStep: "SELECT_TEMPLATE", method: "BUILD_FROM_TEMPLATE" });
    expect(onboardingReducer(noFullEditor, { type: "back" }, env({ canUseFullEditor: false }))).toBe(
      noFullEditor,
    );
    const skipping = env({ prefill: { skipTimezoneStep: true, skipVoiceStep: true } });
    const generating = {
      ...onboardingReducer(chosen(), { type: "init", saved: toPersisted(chosen()) }, skipping),
      activeStep: "GENERATE_AGENT" as const,
    };
    expect(onboardingReducer(generating, { type: "back" }, skipping)).toMatchObject({
      activeStep: "SETUP_INTEGRATIONS",
      integrationIndex: 0,
    });
    expect(
      step(state({ method: "BUILD_FROM_SCRATCH", activeStep: "GENERATE_AGENT" }), { type: "back" }),
    ).toBe("WELCOME");
  });
});

describe("time zone and voice", () => {
  it.each<[string, Partial<OnboardingState>, string]>([
    ["timezone skipping on", { skipTimezoneStep: true }, "SELECT_VOICE"],
    [
      "timezone and voice skipping on (template)",
      { skipTimezoneStep: true, skipVoiceStep: true, method: "BUILD_FROM_TEMPLATE" },
      "GENERATE_AGENT",
    ],
    ["no skipping", {}, "SELECT_TIMEZONE"],
  ])("entering SELECT_TIMEZONE with %s lands on %s", (_, overrides, landed) => {
    expect(step(state(overrides), { type: "goToStep", step: "timezone" })).toBe(landed);
  });

  it.each<[string, Partial<OnboardingState>, string]>([
    ["voice skipping, from scratch", { skipVoiceStep: true, method: "BUILD_FROM_SCRATCH" }, "EDIT_AGENT"],
    [
      "voice skipping, from template",
      { skipVoiceStep: true, method: "BUILD_FROM_TEMPLATE" },
      "GENERATE_AGENT",
    ],
    ["a voice already set, from scratch", { agentVoice: "v1", method: "BUILD_FROM_SCRATCH" }, "EDIT_AGENT"],
    [
      "a voice already set, from template",
      { agentVoice: "v1", method: "BUILD_FROM_TEMPLATE" },
      "GENERATE_AGENT",
    ],
    ["nothing set", { method: "BUILD_FROM_TEMPLATE" }, "SELECT_VOICE"],
  ])("entering SELECT_VOICE with %s lands on %s", (_, overrides, landed) => {
    expect(step(state(overrides), { type: "goToStep", step: "SELECT_VOICE" })).toBe(landed);
  });

  it("selecting a time zone moves to the voice, selecting a voice moves on", () => {
    const timezone = onboardingReducer(
      state({ activeStep: "SELECT_TIMEZONE", method: "BUILD_FROM_TEMPLATE" }),
      { type: "selectTimezone", timezone: "Eastern Standard Time" },
      env(),
    );
    expect(timezone).toMatchObject({ timezone: "Eastern Standard Time", activeStep: "SELECT_VOICE" });
    expect(onboardingReducer(timezone, { type: "selectVoice", voice: "v2" }, env())).toMatchObject({
      agentVoice: "v2",
      activeStep: "GENERATE_AGENT",
    });
    const scratch = { ...timezone, method: "BUILD_FROM_SCRATCH" as const };
    expect(step(scratch, { type: "selectVoice", voice: "v2" })).toBe("EDIT_AGENT");
  });

  it("from scratch: generate, time zone, voice, edit, test, number, schedule", () => {
    const seen: string[] = [];
    let current = onboardingReducer(state(), { type: "selectMethod", method: "BUILD_FROM_SCRATCH" }, env());
    for (let i = 0; i < 6; i++) {
      seen.push(current.activeStep);
      current = onboardingReducer(current, { type: "next" }, env());
    }
    seen.push(current.activeStep);
    expect(seen).toEqual([
      "GENERATE_AGENT",
      "SELECT_TIMEZONE",
      "SELECT_VOICE",
      "EDIT_AGENT",
      "TEST_AGENT",
      "CHOOSE_NUMBER",
      "SCHEDULE_CALL",
    ]);
  });
});

describe("without the full-editor permission", () => {
  const limited = env({ canUseFullEditor: false });

  it("starts at SELECT_TEMPLATE building from a template and never sees WELCOME", () => {
    const started = onboardingReducer(state(), { type: "init" }, limited);
    expect(started).toMatchObject({ activeStep: "SELECT_TEMPLATE", method: "BUILD_FROM_TEMPLATE" });
    expect(step(started, { type: "goToStep", step: "initial" }, limited)).toBe("SELECT_TEMPLATE");
    expect(step(state(), { type: "restart" }, limited)).toBe("SELECT_TEMPLATE");
    const fromQuery = onboardingReducer(
      state(),
      { type: "init", query: { onboard: "true", activeStep: "initial" } },
      limited,
    );
    expect(fromQuery.activeStep).toBe("SELECT_TEMPLATE");
  });
});

describe("discard, restart, exit, complete", () => {
  const progressed = () => ({
    ...chosen(),
    timezone: "UTC",
    agentVoice: "v1",
    connectedIntegrations: { crm: true },
  });

  it("discard template goes back to SELECT_TEMPLATE clearing template, fields, integrations, timezone and voice", () => {
    expect(onboardingReducer(progressed(), { type: "discardTemplate" }, env())).toMatchObject({
      activeStep: "SELECT_TEMPLATE",
      templateId: null,
      templateFields: [],
      templateIntegrations: [],
      connectedIntegrations: {},
      timezone: null,
      agentVoice: null,
    });
  });

  it.each<[string, Partial<OnboardingState>, boolean, string]>([
    ["a new user", {}, true, "WELCOME"],
    ["a user without the full editor", {}, false, "SELECT_TEMPLATE"],
    ["a user already complete", { onboardingComplete: true }, true, "SELECT_TEMPLATE"],
  ])("restart returns %s to defaults and its first step", (_, overrides, canUseFullEditor, first) => {
    const after = onboardingReducer(
      { ...progressed(), ...overrides },
      { type: "restart" },
      env({ canUseFullEditor, prefill: { timezone: "America/Chicago", skipVoiceStep: true } }),
    );
    expect(after).toMatchObject({
      activeStep: first,
      templateId: null,
      templateFields: [],
      connectedIntegrations: {},
      agentVoice: null,
      timezone: "Central Standard Time",
      skipVoiceStep: true,
      onboardingComplete: overrides.onboardingComplete ?? false,
    });
  });

  it("exit and discard resets at once, keeps the complete flag and leaves", () => {
    const { state: after, effects } = onboardingTransition(
      { ...progressed(), onboardingComplete: true },
      { type: "exitAndDiscard" },
      env(),
    );
    expect(after).toEqual({
      ...createOnboardingState({ onboardingComplete: true }),
      updatedAt: Math.floor(NOW / 1000),
    });
    expect(effects.map((effect) => effect.type)).toEqual([
      "writeLocalStorage",
      "saveSettings",
      "removeQueryKeys",
    ]);
    expect(effects[1]).toMatchObject({ debounceMs: 0 });
    expect(effects[2]).toEqual({
      type: "removeQueryKeys",
      keys: ["onboard", "activeStep", "fieldIndex", "integrationIndex"],
    });
  });

  it("complete sets the flag, saves at once, refreshes permissions and leaves", () => {
    const { state: after, effects } = onboardingTransition(progressed(), { type: "complete" }, env());
    expect(after.onboardingComplete).toBe(true);
    expect(effects.map((effect) => effect.type)).toEqual([
      "writeLocalStorage",
      "saveSettings",
      "removeQueryKeys",
      "refreshPermissions",
    ]);
    expect(effects[1]).toMatchObject({
      debounceMs: 0,
      settings: { onboarding: { onboardingComplete: true } },
    });
  });

  it("mark as complete does the same without leaving", () => {
    const { state: after, effects } = onboardingTransition(progressed(), { type: "markComplete" }, env());
    expect(after.onboardingComplete).toBe(true);
    expect(effects.map((effect) => effect.type)).toEqual([
      "writeLocalStorage",
      "saveSettings",
      "refreshPermissions",
    ]);
  });

  it("next on the last step completes, and completing twice still leaves", () => {
    const last = state({ activeStep: "SCHEDULE_CALL", method: "BUILD_FROM_TEMPLATE" });
    const done = onboardingTransition(last, { type: "next" }, env());
    expect(done.state.onboardingComplete).toBe(true);
    const again = onboardingTransition(done.state, { type: "complete" }, env());
    expect(again.effects.map((effect) => effect.type)).toContain("removeQueryKeys");
  });

  it("resets when the onboard query disappears", () => {
    const { state: after, effects } = onboardingTransition(
      progressed(),
      { type: "queryChanged", query: { activeStep: "SETUP_TEMPLATE" } },
      env(),
    );
    expect(after).toMatchObject({ activeStep: "WELCOME", templateId: null, templateFields: [] });
    expect(effects.map((effect) => effect.type)).toEqual([
      "writeLocalStorage",
      "saveSettings",
      "removeQueryKeys",
    ]);
    expect(
      onboardingTransition(createOnboardingState(), { type: "queryChanged", query: {} }, env()).effects,
    ).toEqual([]);
  });
});

describe("query", () => {
  it.each([
    ["templates", "SELECT_TEMPLATE"],
    ["tryAgent", "TEST_AGENT"],
    ["talkWithExpert", "SCHEDULE_CALL"],
    ["chooseNumber", "CHOOSE_NUMBER"],
    ["EDIT_AGENT", "EDIT_AGENT"],
  ])("activeStep=%s opens %s", (activeStep, expected) => {
    const { state: after, effects } = onboardingTransition(
      state(),
      { type: "init", query: { onboard: "true", activeStep } },
      env(),
    );
    expect(after.activeStep).toBe(expected);
    expect(effects).toEqual([
      { type: "setQuery", values: { activeStep: expected, fieldIndex: null, integrationIndex: null } },
    ]);
  });

  it("unknown steps leave the wizard where it was", () => {
    const saved = toPersisted(state({ activeStep: "EDIT_AGENT", method: "BUILD_FROM_TEMPLATE" }));
    expect(step(state(), { type: "init", saved, query: { onboard: "", activeStep: "bogus" } })).toBe(
      "EDIT_AGENT",
    );
    const before = state({ activeStep: "EDIT_AGENT" });
    expect(onboardingTransition(before, { type: "goToStep", step: "bogus" }, env())).toEqual({
      state: before,
      effects: [],
    });
  });

  it("fieldIndex and integrationIndex come from the query", () => {
    const saved = toPersisted({ ...chosen(), activeStep: "TEST_AGENT" });
    const atField = onboardingReducer(
      state(),
      { type: "init", saved, query: { onboard: "true", activeStep: "fields", fieldIndex: "2" } },
      env(),
    );
    expect(atField).toMatchObject({ activeStep: "SETUP_TEMPLATE", fieldIndex: 3 });
    const moved = onboardingTransition(
      atField,
      { type: "queryChanged", query: { onboard: "true", activeStep: "fields", fieldIndex: "1" } },
      env(),
    );
    expect(moved.state.fieldIndex).toBe(1);
    const atIntegration = onboardingReducer(
      state(),
      { type: "init", saved, query: { onboard: "true", activeStep: "integrations", integrationIndex: "0" } },
      env(),
    );
    expect(atIntegration).toMatchObject({ activeStep: "SETUP_INTEGRATIONS", integrationIndex: 0 });
  });

  it("steps that need a template fall back to SELECT_TEMPLATE without one", () => {
    expect(step(state(), { type: "goToStep", step: "fields" })).toBe("SELECT_TEMPLATE");
    expect(step(state(), { type: "goToStep", step: "integrations" })).toBe("SELECT_TEMPLATE");
  });

  it("navigation sets the query keys", () => {
    const { effects } = onboardingTransition(chosen(), { type: "next" }, env());
    expect(effects.at(-1)).toEqual({
      type: "setQuery",
      values: { activeStep: "SETUP_TEMPLATE", fieldIndex: "1", integrationIndex: null },
    });
  });
});

describe("persistence", () => {
  it("every update stamps updatedAt, writes local storage at once and saves settings after 1000 ms", () => {
    const { state: after, effects } = onboardingTransition(
      state(),
      { type: "selectMethod", method: "BUILD_FROM_TEMPLATE" },
      env(),
    );
    expect(after.updatedAt).toBe(Math.floor(NOW / 1000));
    const persisted = toPersisted(after);
    expect(effects).toEqual<OnboardingEffect[]>([
      { type: "writeLocalStorage", key: "onboarding", value: persisted },
      { type: "saveSettings", settings: { onboarding: persisted }, debounceMs: 1000 },
      {
        type: "setQuery",
        values: { activeStep: "SELECT_TEMPLATE", fieldIndex: null, integrationIndex: null },
      },
    ]);
    expect(persisted).not.toHaveProperty("skipTimezoneStep");
  });

  it("nothing changing means no effects; hydrating never persists", () => {
    const before = state({ activeStep: "SELECT_TEMPLATE", method: "BUILD_FROM_TEMPLATE" });
    expect(onboardingTransition(before, { type: "next" }, env())).toEqual({ state: before, effects: [] });
    expect(
      onboardingTransition(before, { type: "setFieldValue", key: "missing", value: 1 }, env()).effects,
    ).toEqual([]);
    expect(onboardingTransition(before, { type: "init" }, env()).effects).toEqual([]);
  });

  it("hydration reads skip flags from pre-fill only", () => {
    const saved = {
      ...toPersisted(state({ activeStep: "SELECT_VOICE" })),
      skipVoiceStep: true,
      skipTimezoneStep: true,
    };
    expect(onboardingReducer(state(), { type: "init", saved }, env())).toMatchObject({
      skipVoiceStep: false,
      skipTimezoneStep: false,
      activeStep: "SELECT_VOICE",
    });
    expect(
      onboardingReducer(state(), { type: "init", saved }, env({ prefill: { skipVoiceStep: true } })),
    ).toMatchObject({ skipVoiceStep: true });
  });
});

describe("pre-fill", () => {
  it.each<[string | number, string]>([
    ["America/New_York", "Eastern Standard Time"],
    ["Pacific Standard Time", "Pacific Standard Time"],
    ["Tokyo", "Tokyo Standard Time"],
    [-6, "Central Standard Time"],
    ["UTC+05:30", "India Standard Time"],
    ["Atlantis", "UTC"],
  ])("time zone %j resolves to %s", (timezone, value) => {
    expect(onboardingReducer(state(), { type: "init" }, env({ prefill: { timezone } })).timezone).toBe(value);
  });

  it("keeps a saved time zone and takes the voice, which then skips its step", () => {
    const saved = toPersisted(
      state({ timezone: "UTC", activeStep: "SELECT_TIMEZONE", method: "BUILD_FROM_TEMPLATE" }),
    );
    const context = env({ prefill: { timezone: "America/Chicago", agentVoice: "voice-7" } });
    const started = onboardingReducer(state(), { type: "init", saved }, context);
    expect(started).toMatchObject({ timezone: "UTC", agentVoice: "voice-7" });
    expect(step(started, { type: "selectTimezone", timezone: "UTC" }, context)).toBe("GENERATE_AGENT");
  });

  it("fills template fields on selection: values checked, fields skipped, placeholders replaced", () => {
    const template: OnboardingTemplate = {
      id: "t",
      templateFields: [
        { key: "businessName", type: "text" },
        { key: "services", type: "multiselect", options: ["cut", "color"] },
        { key: "tone", type: "select", options: ["warm"] },
        { key: "greeting", type: "text", value: "Hi, {businessName} here" },
      ],
      templateIntegrations: ["crm", "sheets"],
    };
    const context = env({
      prefill: {
        templateFields: { businessName: "Acme", services: ["cut", "nails"], tone: "cold" },
        fieldsToSkip: ["businessName", "services"],
        integrationsToSkip: ["crm"],
      },
    });
    const after = onboardingReducer(state(), { type: "selectTemplate", template }, context);
    expect(after.templateFields).toEqual([
      { key: "businessName", type: "text", value: "Acme", autoPrefilled: true },
      {
        key: "services",
        type: "multiselect",
        options: ["cut", "color"],
        value: ["cut"],
        autoPrefilled: true,
      },
      { key: "tone", type: "select", options: ["warm"] },
      { key: "greeting", type: "text", value: "Hi, Acme here" },
    ]);
    expect(after.fieldIndex).toBe(2);
    const pastFields = onboardingReducer({ ...after, fieldIndex: 3 }, { type: "next" }, context);
    expect(pastFields).toMatchObject({ activeStep: "SETUP_INTEGRATIONS", integrationIndex: 0 });
    expect(step(pastFields, { type: "next" }, context)).toBe("SELECT_TIMEZONE");
  });
});

describe("stale template check", () => {
  const saved = () => ({ ...chosen(), activeStep: "TEST_AGENT" as const });

  it("discards a saved template whose definition changed", () => {
    const changed = { ...salon, templateIntegrations: ["crm", "sheets"] };
    const after = onboardingReducer(saved(), { type: "checkStaleTemplate" }, env({ templates: [changed] }));
    expect(after).toMatchObject({ activeStep: "SELECT_TEMPLATE", templateId: null, templateFields: [] });
  });

  it("keeps a template that did not change, an unknown one, or a finished onboarding", () => {
    const current = saved();
    expect(onboardingReducer(current, { type: "checkStaleTemplate" }, env({ templates: [salon] }))).toBe(
      current,
    );
    expect(onboardingReducer(current, { type: "checkStaleTemplate" }, env({ templates: [] }))).toBe(current);
    const done = { ...current, onboardingComplete: true };
    const changed = { ...salon, templateIntegrations: [] };
    expect(onboardingReducer(done, { type: "checkStaleTemplate" }, env({ templates: [changed] }))).toBe(done);
  });
});

describe("booking page", () => {
  it("opens in a new tab, or with the in-app opener inside the mobile app", () => {
    const current = state({ activeStep: "SCHEDULE_CALL" });
    expect(onboardingTransition(current, { type: "openBookingPage" }, env()).effects).toEqual([
      { type: "openBookingPage", target: "newTab" },
    ]);
    expect(
      onboardingTransition(current, { type: "openBookingPage" }, env({ isMobileApp: true })).effects,
    ).toEqual([{ type: "openBookingPage", target: "inAppUrlOpener" }]);
  });
});
