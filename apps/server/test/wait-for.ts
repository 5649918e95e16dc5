import { within } from "../../../vitest.time-limits.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads until `done` holds or `ms` pass (within(ms): five times it on CI), every 50 ms, and answers the last
 * value read: the test's own assertion on it then says what was not reached.
 */
export async function waitFor<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + within(ms);
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await sleep(50);
    value = await read();
  }
  return value;
}

/** {@link waitFor}, failing with the last value read when `done` does not hold in time. */
export async function waitUntil<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const value = await waitFor(read, done, ms);
  if (!done(value))
    throw new Error(`waitUntil: not done after ${within(ms)} ms: ${JSON.stringify(value)?.slice(0, 600)}`);
  return value;
}
