/**
 * The time a test allows for a latency it claims. On a quiet machine, the claim itself. On CI the lanes share
 * two cores (load average 10 and more) and a process can wait seconds for one, so there a test allows five
 * times its claim: it still fails when the thing is slow by design or never happens, and the figure itself is
 * measured by the benchmarks under bench/, not by a test.
 */
export const LOAD_FACTOR = process.env.CI ? 5 : 1;

export const within = (ms: number) => ms * LOAD_FACTOR;
