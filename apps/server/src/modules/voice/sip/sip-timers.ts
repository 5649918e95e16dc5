/** The SIP server's timers (retransmissions, transaction lifetimes, session timers), all cleared on close. */
export type SipTimers = {
  /** Runs `fn` after `ms` unless cleared first. */
  later(ms: number, fn: () => void): NodeJS.Timeout;
  /** Clears these timers and empties the list. */
  clear(timers: NodeJS.Timeout[]): void;
  /** Clears one timer. */
  cancel(timer: NodeJS.Timeout): void;
  /** Clears every timer still pending (close). */
  clearAll(): void;
};

export function createSipTimers(): SipTimers {
  const lingering = new Set<NodeJS.Timeout>();
  return {
    later(ms, fn) {
      const timer = setTimeout(() => {
        lingering.delete(timer);
        fn();
      }, ms);
      lingering.add(timer);
      return timer;
    },
    clear(timers) {
      for (const timer of timers) {
        clearTimeout(timer);
        lingering.delete(timer);
      }
      timers.length = 0;
    },
    cancel(timer) {
      clearTimeout(timer);
      lingering.delete(timer);
    },
    clearAll() {
      for (const timer of lingering) clearTimeout(timer);
      lingering.clear();
    },
  };
}
