/**
 * A test's and a hook's time limit. On CI the Vitest lanes share two cores with the browser journeys and
 * each other, and a test that takes seconds alone can wait 20 s for a core: there the limits are a minute
 * and two. A limit is a safety net against a hang, not a measure: what a test measures it asserts itself.
 * (A project's own limits win over the command line's, so each project config takes them from here.)
 */
export function timeLimits(testMs = 5_000, hookMs = 10_000): { testTimeout: number; hookTimeout: number } {
  return process.env.CI
    ? { testTimeout: Math.max(testMs, 60_000), hookTimeout: Math.max(hookMs, 120_000) }
    : { testTimeout: testMs, hookTimeout: hookMs };
}
