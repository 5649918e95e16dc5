/** Onboarding wizard steps, methods and query keys (product spec §2.3, §4.1). */

export const ONBOARDING_STEPS = [
  "WELCOME",
  "SELECT_TEMPLATE",
  "SETUP_TEMPLATE",
  "SETUP_INTEGRATIONS",
  "SELECT_TIMEZONE",
  "SELECT_VOICE",
  "GENERATE_AGENT",
  "EDIT_AGENT",
  "TEST_AGENT",
  "CHOOSE_NUMBER",
  "SCHEDULE_CALL",
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const ONBOARDING_METHODS = ["BUILD_FROM_SCRATCH", "BUILD_FROM_TEMPLATE"] as const;
export type OnboardingMethod = (typeof ONBOARDING_METHODS)[number];

/** Query keys that drive the wizard; leaving or finishing removes all four. */
export const ONBOARDING_QUERY_KEYS = ["onboard", "activeStep", "fieldIndex", "integrationIndex"] as const;
export type OnboardingQueryKey = (typeof ONBOARDING_QUERY_KEYS)[number];
export type OnboardingQuery = Partial<Record<OnboardingQueryKey, string | null>>;

/** activeStep aliases accepted in the query (product spec §2.3). */
export const ONBOARDING_STEP_ALIASES: Readonly<Record<string, OnboardingStep>> = {
  templates: "SELECT_TEMPLATE",
  fields: "SETUP_TEMPLATE",
  setupAgent: "SETUP_TEMPLATE",
  integrations: "SETUP_INTEGRATIONS",
  generate: "GENERATE_AGENT",
  generateAgent: "GENERATE_AGENT",
  agentVoice: "SELECT_VOICE",
  selectVoice: "SELECT_VOICE",
  timezone: "SELECT_TIMEZONE",
  selectTimezone: "SELECT_TIMEZONE",
  editAgent: "EDIT_AGENT",
  tryAgent: "TEST_AGENT",
  testAgent: "TEST_AGENT",
  chooseNumber: "CHOOSE_NUMBER",
  scheduleCall: "SCHEDULE_CALL",
  talkWithExpert: "SCHEDULE_CALL",
  initial: "WELCOME",
};

/** The step an activeStep value names: its alias target, otherwise the value as given. */
export function resolveStepAlias(value: string): string {
  return Object.hasOwn(ONBOARDING_STEP_ALIASES, value)
    ? (ONBOARDING_STEP_ALIASES[value] as OnboardingStep)
    : value;
}

export function isOnboardingStep(value: unknown): value is OnboardingStep {
  return typeof value === "string" && (ONBOARDING_STEPS as readonly string[]).includes(value);
}

export function isOnboardingMethod(value: unknown): value is OnboardingMethod {
  return typeof value === "string" && (ONBOARDING_METHODS as readonly string[]).includes(value);
}

/** The step an activeStep query value leads to, or null when it names no step. */
export function stepFromQuery(value: string | null | undefined): OnboardingStep | null {
  if (typeof value !== "string") return null;
  const step = resolveStepAlias(value.trim());
  return isOnboardingStep(step) ? step : null;
}

/** Steps in order for a template-built agent. */
export const TEMPLATE_FLOW: readonly OnboardingStep[] = [
  "WELCOME",
  "SELECT_TEMPLATE",
  "SETUP_TEMPLATE",
  "SETUP_INTEGRATIONS",
  "SELECT_TIMEZONE",
  "SELECT_VOICE",
  "GENERATE_AGENT",
  "EDIT_AGENT",
  "TEST_AGENT",
  "CHOOSE_NUMBER",
  "SCHEDULE_CALL",
];

/** Steps in order for an agent built from scratch: generated first, then time zone and voice, then edited. */
export const SCRATCH_FLOW: readonly OnboardingStep[] = [
  "WELCOME",
  "GENERATE_AGENT",
  "SELECT_TIMEZONE",
  "SELECT_VOICE",
  "EDIT_AGENT",
  "TEST_AGENT",
  "CHOOSE_NUMBER",
  "SCHEDULE_CALL",
];

export function flowOf(method: OnboardingMethod | null): readonly OnboardingStep[] {
  return method === "BUILD_FROM_SCRATCH" ? SCRATCH_FLOW : TEMPLATE_FLOW;
}
