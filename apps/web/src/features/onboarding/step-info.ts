import { flowOf, type OnboardingMethod, type OnboardingStep } from "@switchboard/core";

/** What each step is called in the wizard's header. */
export const STEP_TITLES: Record<OnboardingStep, string> = {
  WELCOME: "Welcome",
  SELECT_TEMPLATE: "Choose a template",
  SETUP_TEMPLATE: "About your business",
  SETUP_INTEGRATIONS: "Connect your tools",
  SELECT_TIMEZONE: "Time zone",
  SELECT_VOICE: "Voice",
  GENERATE_AGENT: "Create your agent",
  EDIT_AGENT: "Review the instructions",
  TEST_AGENT: "Try your agent",
  CHOOSE_NUMBER: "Get a phone number",
  SCHEDULE_CALL: "Talk with an expert",
};

/** Position of the step in the method's flow: 1-based number and count. */
export function stepPosition(
  method: OnboardingMethod | null,
  step: OnboardingStep,
): { number: number; count: number } {
  const flow = flowOf(method);
  const at = flow.indexOf(step);
  return { number: at === -1 ? 1 : at + 1, count: flow.length };
}

/** "clinicName" -> "Clinic name"; "jobnimbus" -> "Jobnimbus". */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Steps that belong to the chosen template (discarding it is offered there). */
export const TEMPLATE_STEPS: ReadonlySet<OnboardingStep> = new Set([
  "SETUP_TEMPLATE",
  "SETUP_INTEGRATIONS",
  "SELECT_TIMEZONE",
  "SELECT_VOICE",
  "GENERATE_AGENT",
]);
