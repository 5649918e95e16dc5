import { ONBOARDING_QUERY_KEYS, type OnboardingQuery } from "@switchboard/core";

/**
 * The wizard's part of the address (product spec §2.3): onboard, activeStep, fieldIndex and integrationIndex.
 * Pure edits of `location.search` (with or without "?"); every other key is kept as it is.
 */

function toSearch(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The four wizard keys of a query string; a missing key is null. */
export function onboardingQueryOf(search: string | URLSearchParams): OnboardingQuery {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  return Object.fromEntries(ONBOARDING_QUERY_KEYS.map((key) => [key, params.get(key)])) as OnboardingQuery;
}

/** One text for the wizard's keys, to tell whether they changed. */
export function onboardingQueryKey(query: OnboardingQuery): string {
  return ONBOARDING_QUERY_KEYS.map((key) => `${key}=${query[key] ?? ""}`).join("&");
}

/** Sets activeStep, fieldIndex and integrationIndex; a null value removes its key. */
export function searchWithOnboardingStep(
  search: string,
  values: { activeStep: string; fieldIndex: string | null; integrationIndex: string | null },
): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(values)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  return toSearch(params);
}

/** Leaving or finishing the wizard removes all four keys. */
export function searchWithoutOnboarding(search: string): string {
  const params = new URLSearchParams(search);
  for (const key of ONBOARDING_QUERY_KEYS) params.delete(key);
  return toSearch(params);
}

/** Whether any of the four keys is in the query. */
export function hasOnboardingKeys(search: string): boolean {
  const params = new URLSearchParams(search);
  return ONBOARDING_QUERY_KEYS.some((key) => params.has(key));
}
