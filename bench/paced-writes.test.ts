import { describe, expect, it } from "vitest";
import { rateFromEnv, writePaced } from "./paced-writes.ts";

/** Runs writePaced for `ms` and answers how many writes it made. */
async function writesIn(perSecond: number, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let calls = 0;
  const made = await writePaced(
    perSecond,
    () => performance.now() < until,
    async () => {
      calls++;
    },
  );
  expect(made).toBe(calls);
  return made;
}

describe("paced writes (BENCH_WRITES_PER_S)", () => {
  it("writes nothing at a rate of 0", async () => {
    expect(await writesIn(0, 200)).toBe(0);
  });

  it("keeps to the rate it is given", async () => {
    const made = await writesIn(20, 500);
    // 20/s for 0.5 s: about 10 (timers on a loaded machine are late, never early).
    expect(made).toBeGreaterThanOrEqual(2);
    expect(made).toBeLessThanOrEqual(11);
  });

  it("takes a rate of at least 0 from the environment, the default when unset", () => {
    expect(rateFromEnv("BENCH_WRITES_PER_S", undefined, 50)).toBe(50);
    expect(rateFromEnv("BENCH_WRITES_PER_S", "0", 50)).toBe(0);
    expect(() => rateFromEnv("BENCH_WRITES_PER_S", "-1", 50)).toThrow("BENCH_WRITES_PER_S must be");
    expect(() => rateFromEnv("BENCH_WRITES_PER_S", "fast", 50)).toThrow("BENCH_WRITES_PER_S must be");
  });
});
