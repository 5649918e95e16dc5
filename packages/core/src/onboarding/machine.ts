// The onboarding wizard as one state machine (~490 lines): every transition reads and writes the same
// state, so the steps' rules stay in one place; state and persistence are in state.ts, the steps and flows in steps.ts.
import { LOCAL_STORAGE_KEYS, ONBOARDING_SAVE_DEBOUNCE_MS } from "../constants.ts";
import { resolveTimezone } from "../timezones/timezones.ts";
import {
  createOnboardingState,
  epochSeconds,
  fromPersisted,
  type OnboardingState,
  type PersistedOnboarding,
  toPersisted,
} from "./state.ts";
import {
  flowOf,
  ONBOARDING_QUERY_KEYS,
  type OnboardingMethod,
  type OnboardingQuery,
  type OnboardingStep,
  stepFromQuery,
} from "./steps.ts";
import {
  applyPrefillToFields,
  isTemplateStale,
  nextActiveFieldIndex,
  type OnboardingPrefill,
  type OnboardingTemplate,
  previousActiveFieldIndex,
  templateIntegrationsOf,
} from "./template-fields.ts";

/**
 * The onboarding wizard (product spec §2.3, §4.1) as a pure state machine. {@link onboardingTransition} returns
 * the next state and the side effects to perform; {@link onboardingReducer} returns the state alone.
 */

export type OnboardingEnv = {
  /** Epoch ms; updatedAt is stamped from it. */
  now: number;
  /** The full-editor permission (product spec §6). Without it the wizard starts at SELECT_TEMPLATE. */
  canUseFullEditor: boolean;
  /** Current templates, for the stale-template check. */
  templates?: readonly OnboardingTemplate[];
  prefill?: OnboardingPrefill;
  /** Inside the mobile app the booking page opens with the in-app URL opener. */
  isMobileApp?: boolean;
};

export type OnboardingAction =
  /** Hydrates from saved data (the latest of local storage and settings) and the wizard's query. */
  | { type: "init"; saved?: unknown; query?: OnboardingQuery }
  /** The query changed: navigation, or the wizard closing when `onboard` disappears (state resets). */
  | { type: "queryChanged"; query: OnboardingQuery }
  | { type: "selectMethod"; method: OnboardingMethod }
  /** Jump to a step (aliases accepted); entering rules apply. */
  | { type: "goToStep"; step: string }
  /** Forward: next field, next integration or next step; on the last step it completes. */
  | { type: "next" }
  | { type: "back" }
  | { type: "selectTemplate"; template: OnboardingTemplate }
  | { type: "setFieldValue"; key: string; value: unknown }
  | { type: "setIntegrationConnected"; integration: string; connected: boolean }
  | { type: "selectTimezone"; timezone: string }
  | { type: "selectVoice"; voice: string }
  | { type: "discardTemplate" }
  | { type: "restart" }
  | { type: "exitAndDiscard" }
  | { type: "complete" }
  | { type: "markComplete" }
  /** Run when templates (re)load: a stale saved template is discarded. */
  | { type: "checkStaleTemplate" }
  | { type: "openBookingPage" };

export type OnboardingEffect =
  /** Write the state to local storage now. */
  | { type: "writeLocalStorage"; key: typeof LOCAL_STORAGE_KEYS.onboarding; value: PersistedOnboarding }
  /**
   * Save to account settings after `debounceMs` (0: at once), replacing a pending save. A failed save is
   * swallowed: the local state has already moved on.
   */
  | { type: "saveSettings"; settings: { onboarding: PersistedOnboarding }; debounceMs: number }
  /** Set these query keys; null removes one. */
  | {
      type: "setQuery";
      values: { activeStep: string; fieldIndex: string | null; integrationIndex: string | null };
    }
  /** Remove the wizard's query keys: leaving the wizard. */
  | { type: "removeQueryKeys"; keys: typeof ONBOARDING_QUERY_KEYS }
  | { type: "refreshPermissions" }
  /** Open the external booking page: a new tab, or the in-app URL opener inside the mobile app. */
  | { type: "openBookingPage"; target: "newTab" | "inAppUrlOpener" };

export type OnboardingTransition = { state: OnboardingState; effects: OnboardingEffect[] };

// ---- navigation ------------------------------------------------------------------------------------------

/** Integrations the wizard asks for: the template's, less those pre-fill skips. */
export function activeIntegrations(state: OnboardingState, env: OnboardingEnv): string[] {
  const skip = new Set(env.prefill?.integrationsToSkip ?? []);
  return state.templateIntegrations.filter((name) => !skip.has(name));
}

/** The first step of a fresh wizard: WELCOME, or SELECT_TEMPLATE without the full editor or once complete. */
function firstStep(state: OnboardingState, env: OnboardingEnv): OnboardingState {
  if (env.canUseFullEditor && !state.onboardingComplete) return { ...state, activeStep: "WELCOME" };
  return { ...state, activeStep: "SELECT_TEMPLATE", method: "BUILD_FROM_TEMPLATE" };
}

function stepAfter(state: OnboardingState, step: OnboardingStep): OnboardingStep | null {
  const flow = flowOf(state.method);
  const at = flow.indexOf(step);
  return at === -1 ? null : (flow[at + 1] ?? null);
}

function stepBefore(state: OnboardingState, step: OnboardingStep): OnboardingStep | null {
  const flow = flowOf(state.method);
  const at = flow.indexOf(step);
  return at <= 0 ? null : (flow[at - 1] ?? null);
}

/**
 * Enters a step going forward, applying the entering rules: WELCOME becomes SELECT_TEMPLATE without the full
 * editor; SETUP_TEMPLATE and SETUP_INTEGRATIONS need a template (else SELECT_TEMPLATE); SETUP_TEMPLATE lands on
 * the first field neither disabled nor auto-prefilled (or moves past the fields); SETUP_INTEGRATIONS without
 * integrations moves on; SELECT_TIMEZONE with timezone skipping goes to
 * SELECT_VOICE; SELECT_VOICE with voice skipping, or with a voice already set, goes to EDIT_AGENT from
 * scratch and GENERATE_AGENT otherwise.
 */
function enter(
  state: OnboardingState,
  step: OnboardingStep,
  env: OnboardingEnv,
  at: { fieldIndex?: number; integrationIndex?: number } = {},
): OnboardingState {
  switch (step) {
    case "WELCOME":
      return env.canUseFullEditor ? { ...state, activeStep: "WELCOME" } : firstStep(state, env);
    case "SETUP_TEMPLATE": {
      if (state.templateId === null) return enter(state, "SELECT_TEMPLATE", env);
      const index = nextActiveFieldIndex(state.templateFields, at.fieldIndex ?? 0);
      return index === null
        ? enter(state, "SETUP_INTEGRATIONS", env)
        : { ...state, activeStep: step, fieldIndex: index };
    }
    case "SETUP_INTEGRATIONS": {
      if (state.templateId === null) return enter(state, "SELECT_TEMPLATE", env);
      const count = activeIntegrations(state, env).length;
      if (count === 0) return enter(state, "SELECT_TIMEZONE", env);
      const wanted = at.integrationIndex ?? 0;
      return { ...state, activeStep: step, integrationIndex: wanted < count ? wanted : 0 };
    }
    case "SELECT_TIMEZONE":
      return state.skipTimezoneStep ? enter(state, "SELECT_VOICE", env) : { ...state, activeStep: step };
    case "SELECT_VOICE":
      if (state.skipVoiceStep || state.agentVoice) {
        return enter(state, state.method === "BUILD_FROM_SCRATCH" ? "EDIT_AGENT" : "GENERATE_AGENT", env);
      }
      return { ...state, activeStep: step };
    default:
      return { ...state, activeStep: step };
  }
}

/** Enters a step going back: steps that would be skipped are passed over backwards; fields land on the last one. */
function enterBackward(
  state: OnboardingState,
  step: OnboardingStep | null,
  env: OnboardingEnv,
): OnboardingState {
  if (step === null) return state;
  const further = () => enterBackward(state, stepBefore(state, step), env);
  switch (step) {
    case "WELCOME":
      return env.canUseFullEditor ? { ...state, activeStep: step } : state;
    case "SETUP_TEMPLATE": {
      const index = previousActiveFieldIndex(state.templateFields, state.templateFields.length - 1);
      return index === null ? further() : { ...state, activeStep: step, fieldIndex: index };
    }
    case "SETUP_INTEGRATIONS": {
      const count = activeIntegrations(state, env).length;
      return count === 0 ? further() : { ...state, activeStep: step, integrationIndex: count - 1 };
    }
    case "SELECT_TIMEZONE":
      return state.skipTimezoneStep ? further() : { ...state, activeStep: step };
    case "SELECT_VOICE":
      return state.skipVoiceStep ? further() : { ...state, activeStep: step };
    default:
      return { ...state, activeStep: step };
  }
}

function next(state: OnboardingState, env: OnboardingEnv): OnboardingState | "complete" {
  switch (state.activeStep) {
    case "WELCOME":
      return state.method ? selectMethod(state, state.method, env) : state;
    case "SELECT_TEMPLATE":
      return state.templateId ? enter(state, "SETUP_TEMPLATE", env) : state;
    case "SETUP_TEMPLATE": {
      const index = nextActiveFieldIndex(state.templateFields, state.fieldIndex + 1);
      return index === null ? enter(state, "SETUP_INTEGRATIONS", env) : { ...state, fieldIndex: index };
    }
    case "SETUP_INTEGRATIONS":
      return state.integrationIndex + 1 < activeIntegrations(state, env).length
        ? { ...state, integrationIndex: state.integrationIndex + 1 }
        : enter(state, "SELECT_TIMEZONE", env);
    case "SCHEDULE_CALL":
      return "complete";
    default: {
      const step = stepAfter(state, state.activeStep);
      return step ? enter(state, step, env) : state;
    }
  }
}

function back(state: OnboardingState, env: OnboardingEnv): OnboardingState {
  if (state.activeStep === "SETUP_TEMPLATE") {
    const index = previousActiveFieldIndex(state.templateFields, state.fieldIndex - 1);
    if (index !== null) return { ...state, fieldIndex: index };
  }
  if (state.activeStep === "SETUP_INTEGRATIONS" && state.integrationIndex > 0) {
    return { ...state, integrationIndex: state.integrationIndex - 1 };
  }
  return enterBackward(state, stepBefore(state, state.activeStep), env);
}

function selectMethod(state: OnboardingState, method: OnboardingMethod, env: OnboardingEnv): OnboardingState {
  if (method === "BUILD_FROM_SCRATCH" && !env.canUseFullEditor) return state;
  const chosen = { ...state, method };
  return method === "BUILD_FROM_SCRATCH"
    ? enter(chosen, "GENERATE_AGENT", env)
    : { ...chosen, activeStep: "SELECT_TEMPLATE" };
}

// ---- pre-fill and resets ---------------------------------------------------------------------------------

/** Skip flags from pre-fill (never persisted), and its time zone and voice where the state has none. */
function applyPrefill(state: OnboardingState, prefill: OnboardingPrefill | undefined): OnboardingState {
  const next: OnboardingState = {
    ...state,
    skipTimezoneStep: prefill?.skipTimezoneStep === true,
    skipVoiceStep: prefill?.skipVoiceStep === true,
  };
  if (next.timezone === null && prefill?.timezone !== undefined && prefill.timezone !== "") {
    next.timezone = resolveTimezone(prefill.timezone).value;
  }
  if (next.agentVoice === null && typeof prefill?.agentVoice === "string" && prefill.agentVoice !== "") {
    next.agentVoice = prefill.agentVoice;
  }
  return next;
}

/** Defaults, keeping the complete flag and the time of the last update. */
function reset(state: OnboardingState): OnboardingState {
  return createOnboardingState({ onboardingComplete: state.onboardingComplete, updatedAt: state.updatedAt });
}

function clearTemplate(state: OnboardingState): OnboardingState {
  return {
    ...state,
    templateId: null,
    templateFields: [],
    templateIntegrations: [],
    connectedIntegrations: {},
    timezone: null,
    agentVoice: null,
    fieldIndex: 0,
    integrationIndex: 0,
    activeStep: "SELECT_TEMPLATE",
  };
}

function selectTemplate(
  state: OnboardingState,
  template: OnboardingTemplate,
  env: OnboardingEnv,
): OnboardingState {
  const chosen: OnboardingState = {
    ...state,
    method: "BUILD_FROM_TEMPLATE",
    templateId: template.id,
    templateFields: applyPrefillToFields(template.templateFields ?? [], env.prefill),
    templateIntegrations: templateIntegrationsOf(template),
    connectedIntegrations: {},
    fieldIndex: 0,
    integrationIndex: 0,
  };
  return enter(chosen, "SETUP_TEMPLATE", env);
}

function isOpen(query: OnboardingQuery | undefined): boolean {
  return query?.onboard !== undefined && query.onboard !== null;
}

function queryIndex(value: string | null | undefined): number | undefined {
  return typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** Applies the query's step and indexes (entering rules included); unknown steps are ignored. */
function navigateByQuery(
  state: OnboardingState,
  query: OnboardingQuery,
  env: OnboardingEnv,
): OnboardingState {
  const step = stepFromQuery(query.activeStep);
  if (step === null) return state;
  const fieldIndex = queryIndex(query.fieldIndex);
  const integrationIndex = queryIndex(query.integrationIndex);
  const same =
    step === state.activeStep &&
    (fieldIndex === undefined || step !== "SETUP_TEMPLATE" || fieldIndex === state.fieldIndex) &&
    (integrationIndex === undefined ||
      step !== "SETUP_INTEGRATIONS" ||
      integrationIndex === state.integrationIndex);
  if (same) return state;
  const at: { fieldIndex?: number; integrationIndex?: number } = {};
  if (fieldIndex !== undefined) at.fieldIndex = fieldIndex;
  if (integrationIndex !== undefined) at.integrationIndex = integrationIndex;
  return enter(state, step, env, at);
}

function init(saved: unknown, query: OnboardingQuery | undefined, env: OnboardingEnv): OnboardingState {
  let state = applyPrefill(fromPersisted(saved), env.prefill);
  if (state.activeStep === "WELCOME") state = firstStep(state, env);
  return query ? navigateByQuery(state, query, env) : state;
}

// ---- the machine -----------------------------------------------------------------------------------------

type Persistence = "none" | "debounced" | "immediate";

function reduce(
  state: OnboardingState,
  action: OnboardingAction,
  env: OnboardingEnv,
): { state: OnboardingState; persistence: Persistence; leave?: boolean; refreshPermissions?: boolean } {
  switch (action.type) {
    case "init":
      return { state: init(action.saved, action.query, env), persistence: "none" };
    case "queryChanged":
      if (!isOpen(action.query)) {
        const cleared = reset(state);
        const unchanged = JSON.stringify(toPersisted(cleared)) === JSON.stringify(toPersisted(state));
        return unchanged ? { state, persistence: "none" } : { state: cleared, persistence: "immediate" };
      }
      return { state: navigateByQuery(state, action.query, env), persistence: "debounced" };
    case "selectMethod":
      return { state: selectMethod(state, action.method, env), persistence: "debounced" };
    case "goToStep": {
      const step = stepFromQuery(action.step);
      return { state: step ? enter(state, step, env) : state, persistence: "debounced" };
    }
    case "next": {
      const moved = next(state, env);
      if (moved === "complete") return reduce(state, { type: "complete" }, env);
      return { state: moved, persistence: "debounced" };
    }
    case "back":
      return { state: back(state, env), persistence: "debounced" };
    case "selectTemplate":
      return { state: selectTemplate(state, action.template, env), persistence: "debounced" };
    case "setFieldValue": {
      const at = state.templateFields.findIndex((field) => field.key === action.key);
      if (at === -1) return { state, persistence: "none" };
      const templateFields = state.templateFields.map((field, index) =>
        index === at ? { ...field, value: action.value } : field,
      );
      return { state: { ...state, templateFields }, persistence: "debounced" };
    }
    case "setIntegrationConnected":
      if (state.connectedIntegrations[action.integration] === action.connected)
        return { state, persistence: "none" };
      return {
        state: {
          ...state,
          connectedIntegrations: { ...state.connectedIntegrations, [action.integration]: action.connected },
        },
        persistence: "debounced",
      };
    case "selectTimezone":
      return {
        state: enter({ ...state, timezone: action.timezone }, "SELECT_VOICE", env),
        persistence: "debounced",
      };
    case "selectVoice": {
      const voiced = { ...state, agentVoice: action.voice };
      const step = voiced.method === "BUILD_FROM_SCRATCH" ? "EDIT_AGENT" : "GENERATE_AGENT";
      return { state: enter(voiced, step, env), persistence: "debounced" };
    }
    case "discardTemplate":
      return { state: clearTemplate(state), persistence: "debounced" };
    case "restart":
      return { state: firstStep(applyPrefill(reset(state), env.prefill), env), persistence: "debounced" };
    case "exitAndDiscard":
      return { state: reset(state), persistence: "immediate", leave: true };
    case "complete":
      return {
        state: { ...state, onboardingComplete: true },
        persistence: "immediate",
        leave: true,
        refreshPermissions: true,
      };
    case "markComplete":
      return {
        state: { ...state, onboardingComplete: true },
        persistence: "immediate",
        refreshPermissions: true,
      };
    case "checkStaleTemplate": {
      const current = env.templates?.find((template) => template.id === state.templateId);
      const stale = current !== undefined && !state.onboardingComplete && isTemplateStale(state, current);
      return { state: stale ? clearTemplate(state) : state, persistence: "debounced" };
    }
    case "openBookingPage":
      return { state, persistence: "none" };
  }
}

function queryValues(state: OnboardingState) {
  return {
    activeStep: state.activeStep,
    fieldIndex: state.activeStep === "SETUP_TEMPLATE" ? String(state.fieldIndex) : null,
    integrationIndex: state.activeStep === "SETUP_INTEGRATIONS" ? String(state.integrationIndex) : null,
  };
}

const ALWAYS_EFFECTIVE = new Set<OnboardingAction["type"]>(["exitAndDiscard", "complete", "markComplete"]);

/**
 * One step of the machine: the next state and the effects to perform, in order. Every update stamps updatedAt
 * (epoch seconds of `env.now`), writes local storage at once and saves settings debounced by 1000 ms, or at once
 * for exit-and-discard, complete and mark-as-complete (and for the reset when the onboard query disappears).
 * Leaving (exit-and-discard, complete, the onboard query disappearing) removes the four query keys; other
 * navigation sets activeStep, fieldIndex and integrationIndex. Nothing changes: no effects.
 */
export function onboardingTransition(
  state: OnboardingState,
  action: OnboardingAction,
  env: OnboardingEnv,
): OnboardingTransition {
  if (action.type === "openBookingPage") {
    return {
      state,
      effects: [{ type: "openBookingPage", target: env.isMobileApp ? "inAppUrlOpener" : "newTab" }],
    };
  }
  const result = reduce(state, action, env);
  if (result.state === state && !ALWAYS_EFFECTIVE.has(action.type)) return { state, effects: [] };
  if (action.type === "init") {
    const effects: OnboardingEffect[] = isOpen(action.query)
      ? [{ type: "setQuery", values: queryValues(result.state) }]
      : [];
    return { state: result.state, effects };
  }
  const next =
    result.persistence === "none" ? result.state : { ...result.state, updatedAt: epochSeconds(env.now) };
  const effects: OnboardingEffect[] = [];
  if (result.persistence !== "none") {
    const value = toPersisted(next);
    effects.push({ type: "writeLocalStorage", key: LOCAL_STORAGE_KEYS.onboarding, value });
    effects.push({
      type: "saveSettings",
      settings: { onboarding: value },
      debounceMs: result.persistence === "immediate" ? 0 : ONBOARDING_SAVE_DEBOUNCE_MS,
    });
  }
  const leaving = result.leave === true || (action.type === "queryChanged" && !isOpen(action.query));
  if (leaving) {
    effects.push({ type: "removeQueryKeys", keys: ONBOARDING_QUERY_KEYS });
  } else {
    const before = queryValues(state);
    const after = queryValues(next);
    const moved =
      before.activeStep !== after.activeStep ||
      before.fieldIndex !== after.fieldIndex ||
      before.integrationIndex !== after.integrationIndex;
    if (moved) effects.push({ type: "setQuery", values: after });
  }
  if (result.refreshPermissions) effects.push({ type: "refreshPermissions" });
  return { state: next, effects };
}

/** The state half of {@link onboardingTransition}: `(state, action, env) => state`. */
export function onboardingReducer(
  state: OnboardingState,
  action: OnboardingAction,
  env: OnboardingEnv,
): OnboardingState {
  return onboardingTransition(state, action, env).state;
}
