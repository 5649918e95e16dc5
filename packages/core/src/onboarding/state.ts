import { isPlainRecord } from "../helpers/plain-record.ts";
import { isOnboardingMethod, isOnboardingStep, type OnboardingMethod, type OnboardingStep } from "./steps.ts";
import type { TemplateField } from "./template-fields.ts";

/** Onboarding state (product spec §3): kept in account settings `onboarding` and local storage `onboarding`. */
export type OnboardingState = {
  method: OnboardingMethod | null;
  templateId: string | null;
  templateFields: TemplateField[];
  /** The template's integrations (pre-fill may skip some; see the machine). */
  templateIntegrations: string[];
  connectedIntegrations: Record<string, boolean>;
  activeStep: OnboardingStep;
  /** Index into templateFields of the field being set up. */
  fieldIndex: number;
  /** Index into the integrations the wizard asks for. */
  integrationIndex: number;
  timezone: string | null;
  agentVoice: string | null;
  /** Never persisted: comes from pre-fill data each time. */
  skipTimezoneStep: boolean;
  /** Never persisted: comes from pre-fill data each time. */
  skipVoiceStep: boolean;
  onboardingComplete: boolean;
  /** Epoch seconds of the last update. */
  updatedAt: number | null;
};

/** What is saved: everything but the two skip flags. */
export type PersistedOnboarding = Omit<OnboardingState, "skipTimezoneStep" | "skipVoiceStep">;

export function createOnboardingState(overrides: Partial<OnboardingState> = {}): OnboardingState {
  return {
    method: null,
    templateId: null,
    templateFields: [],
    templateIntegrations: [],
    connectedIntegrations: {},
    activeStep: "WELCOME",
    fieldIndex: 0,
    integrationIndex: 0,
    timezone: null,
    agentVoice: null,
    skipTimezoneStep: false,
    skipVoiceStep: false,
    onboardingComplete: false,
    updatedAt: null,
    ...overrides,
  };
}

/** Epoch seconds of an epoch-ms instant. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/**
 * The persisted form: never includes skipTimezoneStep or skipVoiceStep; updatedAt in epoch seconds (set from
 * `now`, epoch ms, when given).
 */
export function toPersisted(state: OnboardingState, now?: number): PersistedOnboarding {
  const { skipTimezoneStep: _timezone, skipVoiceStep: _voice, ...rest } = state;
  return { ...rest, updatedAt: now === undefined ? state.updatedAt : epochSeconds(now) };
}

const index = (value: unknown) =>
  Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0;
const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/**
 * Reads saved onboarding data (local storage or account settings) defensively: anything missing or malformed
 * takes its default; skip flags are never read; updatedAt given in ms is converted to seconds.
 */
export function fromPersisted(raw: unknown): OnboardingState {
  if (!isPlainRecord(raw)) return createOnboardingState();
  const fields = Array.isArray(raw.templateFields)
    ? raw.templateFields.filter(
        (field): field is TemplateField => isPlainRecord(field) && typeof field.key === "string",
      )
    : [];
  const integrations = Array.isArray(raw.templateIntegrations)
    ? raw.templateIntegrations.filter((name): name is string => typeof name === "string")
    : [];
  const connected: Array<[string, boolean]> = isPlainRecord(raw.connectedIntegrations)
    ? Object.entries(raw.connectedIntegrations).filter(
        (entry): entry is [string, boolean] => typeof entry[1] === "boolean",
      )
    : [];
  const updatedAt =
    typeof raw.updatedAt === "number" && Number.isFinite(raw.updatedAt) ? raw.updatedAt : null;
  return createOnboardingState({
    method: isOnboardingMethod(raw.method) ? raw.method : null,
    templateId: typeof raw.templateId === "number" ? String(raw.templateId) : text(raw.templateId),
    templateFields: fields,
    templateIntegrations: integrations,
    connectedIntegrations: Object.fromEntries(connected),
    activeStep: isOnboardingStep(raw.activeStep) ? raw.activeStep : "WELCOME",
    fieldIndex: index(raw.fieldIndex),
    integrationIndex: index(raw.integrationIndex),
    timezone: text(raw.timezone),
    agentVoice: text(raw.agentVoice),
    onboardingComplete: raw.onboardingComplete === true,
    updatedAt: updatedAt !== null && updatedAt > 100_000_000_000 ? epochSeconds(updatedAt) : updatedAt,
  });
}

/** Of two saved copies (e.g. local storage and account settings), the one updated last; the first on a tie. */
export function pickLatestPersisted(first: unknown, second: unknown): unknown {
  const at = (raw: unknown) => (isPlainRecord(raw) && typeof raw.updatedAt === "number" ? raw.updatedAt : -1);
  if (!isPlainRecord(first)) return isPlainRecord(second) ? second : undefined;
  if (!isPlainRecord(second)) return first;
  const normalise = (value: number) => (value > 100_000_000_000 ? value / 1000 : value);
  return normalise(at(second)) > normalise(at(first)) ? second : first;
}
