import {
  autoCompleteWalkthrough,
  finishWalkthroughStep,
  readWalkthrough,
  startWalkthrough,
  toWalkthroughSettings,
  type WalkthroughSettings,
  type WalkthroughState,
  type WalkthroughStep,
} from "@switchboard/core";

/** What the walkthrough needs of the account in view. */
export type WalkthroughAccountView = {
  settings: Record<string, unknown>;
  switchboardPhoneNumber: string | null;
  timestamp: number;
};

function onboardingComplete(settings: Record<string, unknown>): boolean {
  const onboarding = settings.onboarding;
  return (
    typeof onboarding === "object" &&
    onboarding !== null &&
    (onboarding as { onboardingComplete?: unknown }).onboardingComplete === true
  );
}

/**
 * The walkthrough as the dashboard shows it (product spec §4.2): the stored settings, started (version 1 when
 * none), auto-completed from the account (phone number, onboarding complete, legacy account), the steps
 * finished here since, and the first incomplete step active.
 */
export function deriveWalkthrough(
  account: WalkthroughAccountView,
  finishedHere: readonly WalkthroughStep[] = [],
): WalkthroughState {
  let state = startWalkthrough(readWalkthrough(account.settings.walkthrough));
  state = autoCompleteWalkthrough(state, {
    phoneNumber: account.switchboardPhoneNumber,
    onboardingComplete: onboardingComplete(account.settings),
    timestamp: account.timestamp,
  });
  for (const step of finishedHere) state = finishWalkthroughStep(state, step);
  return startWalkthrough(state);
}

/** The settings to store when they differ from what is stored, else null. */
export function walkthroughToSave(stored: unknown, state: WalkthroughState): WalkthroughSettings | null {
  const next = toWalkthroughSettings(state);
  const current = toWalkthroughSettings(readWalkthrough(stored));
  const same =
    current.version === next.version &&
    current.completed.length === next.completed.length &&
    current.completed.every((step, index) => step === next.completed[index]);
  return same ? null : next;
}
