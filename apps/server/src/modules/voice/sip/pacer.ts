/**
 * One drift-free 20 ms clock shared by every call of a SIP server: tick n is due at start + n × 20 ms
 * (computed from the start, never by adding intervals), so timer lateness never accumulates. A late wake-up
 * runs every tick that fell due (up to `maxCatchUp`, then skips ahead); each member is told the tick's ideal
 * time so it can measure its own send lateness. One timer for all calls keeps the cost flat as calls grow.
 * A member that throws is taken off the clock (and reported to `onError`): it cannot stop the others' ticks.
 */
export type PacerMember = (idealTime: number) => void;

export type Pacer = {
  add(member: PacerMember): void;
  remove(member: PacerMember): void;
  /** Ticks skipped because the event loop was blocked longer than the catch-up allows. */
  readonly skipped: number;
  stop(): void;
};

export function createPacer(
  options: {
    frameMs?: number;
    maxCatchUp?: number;
    now?: () => number;
    onError?: (error: unknown) => void;
  } = {},
): Pacer {
  const frameMs = options.frameMs ?? 20;
  const maxCatchUp = options.maxCatchUp ?? 5;
  const now = options.now ?? (() => performance.now());
  const members = new Set<PacerMember>();
  let start = 0;
  let tick = 0;
  let timer: NodeJS.Timeout | null = null;
  let skipped = 0;

  function schedule() {
    const due = start + (tick + 1) * frameMs;
    timer = setTimeout(run, Math.max(0, due - now()));
  }

  function run() {
    timer = null;
    const current = now();
    let ran = 0;
    while (start + (tick + 1) * frameMs <= current) {
      if (ran === maxCatchUp) {
        const behind = Math.floor((current - start) / frameMs);
        skipped += behind - tick;
        tick = behind;
        break;
      }
      tick++;
      ran++;
      const ideal = start + tick * frameMs;
      for (const member of members) {
        try {
          member(ideal);
        } catch (error) {
          members.delete(member);
          options.onError?.(error);
        }
      }
    }
    if (members.size > 0) schedule();
  }

  return {
    add(member) {
      members.add(member);
      if (!timer) {
        start = now();
        tick = 0;
        schedule();
      }
    },
    remove(member) {
      members.delete(member);
      if (members.size === 0 && timer) {
        clearTimeout(timer);
        timer = null;
      }
    },
    get skipped() {
      return skipped;
    },
    stop() {
      members.clear();
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** Lateness histogram (0.1 ms buckets up to 500 ms): constant memory whatever the call length. */
export function createLatenessHistogram() {
  const buckets = new Uint32Array(5001);
  let count = 0;
  let max = 0;
  return {
    record(ms: number) {
      const value = Math.max(0, ms);
      const index = Math.min(buckets.length - 1, Math.round(value * 10));
      buckets[index] = (buckets[index] as number) + 1;
      count++;
      if (value > max) max = value;
    },
    get count() {
      return count;
    },
    get max() {
      return max;
    },
    /** The q-quantile (0..1) in ms. */
    quantile(q: number): number {
      if (count === 0) return 0;
      const target = Math.ceil(q * count);
      let seen = 0;
      for (let i = 0; i < buckets.length; i++) {
        seen += buckets[i] as number;
        if (seen >= target) return i / 10;
      }
      return max;
    },
    merge(other: { buckets: Uint32Array; count: number; max: number }) {
      for (let i = 0; i < buckets.length; i++)
        buckets[i] = (buckets[i] as number) + (other.buckets[i] as number);
      count += other.count;
      max = Math.max(max, other.max);
    },
    snapshot() {
      return { buckets: buckets.slice(), count, max };
    },
  };
}

export type LatenessHistogram = ReturnType<typeof createLatenessHistogram>;
