/**
 * Calls `write` `perSecond` times a second while `running()` says so, on a fixed schedule from the start (a
 * slow write is caught up by the next ones, never exceeding the rate overall), and answers how many it made.
 * A rate of 0 makes none.
 */
export async function writePaced(
  perSecond: number,
  running: () => boolean,
  write: (index: number) => Promise<void>,
): Promise<number> {
  // Without this, 0 schedules every write at Infinity ms, which timers treat as 1 ms: unpaced writing.
  if (!(perSecond > 0)) return 0;
  const started = performance.now();
  let writes = 0;
  while (running()) {
    await write(writes);
    writes++;
    const due = started + (writes * 1000) / perSecond;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  return writes;
}

/** BENCH_WRITES_PER_S and the like: a number of at least 0, or the fallback when unset. */
export function rateFromEnv(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const rate = Number(raw);
  if (!Number.isFinite(rate) || rate < 0)
    throw new Error(`${name} must be a number of at least 0, not "${raw}"`);
  return rate;
}
