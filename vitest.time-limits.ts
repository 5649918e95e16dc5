/**
 * Time limits for the tests. On CI the test lanes share two cores with the browser journeys and each other,
 * and a test that takes seconds alone can wait 20 s for a core.
 *
 * - `timeLimits`: a project's test and hook limits (a minute and two on CI) and, on CI only, one retry of
 *   a failed test. A limit is a safety net against a hang, not a measure. (A project's own limits win over
 *   the command line's, so each project config takes them from here.)
 * - `within(ms)`: the time a test allows for a wait or a latency it names itself. Alone, the claim itself;
 *   on CI five times it: it still fails when the thing is slow by design or never happens. The figures
 *   themselves are measured by the benchmarks under bench/, not by a test.
 */
// Read without Node's types: the core package's tests (platform-neutral, no "node" types) import this too.
const onCi = Boolean(
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.CI,
);

export const LOAD_FACTOR = onCi ? 5 : 1;

export const within = (ms: number) => ms * LOAD_FACTOR;

export function timeLimits(
  testMs = 5_000,
  hookMs = 10_000,
): { testTimeout: number; hookTimeout: number; retry: number } {
  return onCi
    ? { testTimeout: Math.max(testMs, 60_000), hookTimeout: Math.max(hookMs, 120_000), retry: 1 }
    : { testTimeout: testMs, hookTimeout: hookMs, retry: 0 };
}
