import { WALKTHROUGH_VERSION } from "../constants.ts";
import { isPlainRecord } from "../helpers/plain-record.ts";
import { isLegacyAccount } from "../permissions/roles.ts";

/**
 * The walkthrough (product spec §4.2), kept in account settings `walkthrough` (version, completed list).
 * Every function is pure and returns its input unchanged (the same object) when nothing changes, so callers
 * save only when the result differs.
 */

export const WALKTHROUGH_STEPS = ["SETUP_AGENT", "TEST_AGENT", "ADD_NUMBER", "FORWARD_CALLS"] as const;
export type WalkthroughStep = (typeof WALKTHROUGH_STEPS)[number];

export type WalkthroughState = {
  /** Stored version; null until the walkthrough is first started. */
  version: number | null;
  /** Finished steps, each once, in the order they were finished. */
  completed: WalkthroughStep[];
  /** The step being shown; not stored. */
  activeStep: WalkthroughStep | null;
};

/** The stored part (account settings `walkthrough`). */
export type WalkthroughSettings = { version?: number; completed: WalkthroughStep[] };

export function isWalkthroughStep(value: unknown): value is WalkthroughStep {
  return typeof value === "string" && (WALKTHROUGH_STEPS as readonly string[]).includes(value);
}

/** Reads stored settings defensively: unknown steps and repeats dropped, a missing version stays null. */
export function readWalkthrough(raw: unknown): WalkthroughState {
  const record = isPlainRecord(raw) ? raw : {};
  const completed = Array.isArray(record.completed)
    ? [...new Set(record.completed.filter(isWalkthroughStep))]
    : [];
  const version =
    typeof record.version === "number" && Number.isFinite(record.version) ? record.version : null;
  return { version, completed, activeStep: null };
}

/** What to store: version (when set) and the completed list. */
export function toWalkthroughSettings(state: WalkthroughState): WalkthroughSettings {
  return state.version === null
    ? { completed: [...state.completed] }
    : { version: state.version, completed: [...state.completed] };
}

/** The first step not yet finished, in step order, or null when all are. */
export function nextIncompleteWalkthroughStep(state: WalkthroughState): WalkthroughStep | null {
  return WALKTHROUGH_STEPS.find((step) => !state.completed.includes(step)) ?? null;
}

export function isWalkthroughComplete(state: WalkthroughState): boolean {
  return nextIncompleteWalkthroughStep(state) === null;
}

/** startNext: shows the first incomplete step (none once every step is finished). */
export function startNextWalkthroughStep(state: WalkthroughState): WalkthroughState {
  const activeStep = nextIncompleteWalkthroughStep(state);
  return activeStep === state.activeStep ? state : { ...state, activeStep };
}

/** Starting stores version 1 when no version is stored, then starts the first incomplete step. */
export function startWalkthrough(state: WalkthroughState): WalkthroughState {
  const versioned = state.version === null ? { ...state, version: WALKTHROUGH_VERSION } : state;
  return startNextWalkthroughStep(versioned);
}

/** Finishing a step adds it to the completed list once; it stops being the shown step. */
export function finishWalkthroughStep(state: WalkthroughState, step: WalkthroughStep): WalkthroughState {
  const known = state.completed.includes(step);
  if (known && state.activeStep !== step) return state;
  return {
    ...state,
    completed: known ? state.completed : [...state.completed, step],
    activeStep: state.activeStep === step ? null : state.activeStep,
  };
}

export type WalkthroughAccount = {
  /** The agent's phone number (account field `switchboardPhoneNumber`). */
  phoneNumber?: string | null;
  onboardingComplete?: boolean;
  /** Account creation time: epoch ms, or a date string. */
  timestamp?: number | string | Date | null;
};

/** Epoch ms of an account timestamp given as ms, a date string or a Date; null when unreadable. */
function creationMs(timestamp: WalkthroughAccount["timestamp"]): number | null {
  if (timestamp === null || timestamp === undefined) return null;
  const ms =
    timestamp instanceof Date
      ? timestamp.getTime()
      : typeof timestamp === "number"
        ? timestamp
        : Date.parse(timestamp);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Auto-completion (product spec §4.2): an account with a phone number has SETUP_AGENT, TEST_AGENT and
 * ADD_NUMBER complete; otherwise, when onboarding is complete or the account was created before
 * 1692075600000 ms (legacy), SETUP_AGENT is.
 */
export function autoCompleteWalkthrough(
  state: WalkthroughState,
  account: WalkthroughAccount,
): WalkthroughState {
  const hasNumber = typeof account.phoneNumber === "string" && account.phoneNumber.trim() !== "";
  const steps: WalkthroughStep[] = hasNumber
    ? ["SETUP_AGENT", "TEST_AGENT", "ADD_NUMBER"]
    : account.onboardingComplete === true || isLegacyAccount(creationMs(account.timestamp))
      ? ["SETUP_AGENT"]
      : [];
  const missing = steps.filter((step) => !state.completed.includes(step));
  if (missing.length === 0) return state;
  const activeStep =
    state.activeStep !== null && missing.includes(state.activeStep) ? null : state.activeStep;
  return { ...state, completed: [...state.completed, ...missing], activeStep };
}
