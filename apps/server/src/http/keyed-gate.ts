import { LOAD_MESSAGES } from "@switchboard/api";
import { RetryLater } from "./rate-limit.ts";

type Slot = { running: number; waiting: (() => void)[] };

/**
 * At most `concurrency` runs at once per key; later ones wait here, in the process, holding nothing (no
 * database connection), up to `queue` of them for at most `waitMs`. One more than the queue holds is
 * refused at once (429); one that waited too long gives up (503). Both ask to retry (Retry-After).
 */
export function createKeyedGate(options: { concurrency: number; queue: number; waitMs: number }) {
  const slots = new Map<string, Slot>();

  function release(key: string, slot: Slot): void {
    const next = slot.waiting.shift();
    if (next) next();
    else {
      slot.running -= 1;
      if (slot.running === 0) slots.delete(key);
    }
  }

  async function enter(key: string): Promise<Slot> {
    let slot = slots.get(key);
    if (!slot) {
      slot = { running: 0, waiting: [] };
      slots.set(key, slot);
    }
    if (slot.running < options.concurrency) {
      slot.running += 1;
      return slot;
    }
    if (slot.waiting.length >= options.queue) throw new RetryLater(429, LOAD_MESSAGES.organisationBusy, 1);
    const held = slot;
    await new Promise<void>((resolve, reject) => {
      // A waiter handed the slot keeps `running` as it was: the one that left passed its place on.
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        held.waiting.splice(held.waiting.indexOf(turn), 1);
        reject(new RetryLater(503, LOAD_MESSAGES.busy, Math.max(1, Math.ceil(options.waitMs / 1000))));
      }, options.waitMs);
      held.waiting.push(turn);
    });
    return held;
  }

  return {
    /** Runs `work` when the key has a free place, and frees it after (however the work ends). */
    async run<T>(key: string | number, work: () => Promise<T>): Promise<T> {
      const name = String(key);
      const slot = await enter(name);
      try {
        return await work();
      } finally {
        release(name, slot);
      }
    },
    /** Keys with work running or waiting (for tests and metrics). */
    get busyKeys(): number {
      return slots.size;
    },
  };
}

export type KeyedGate = ReturnType<typeof createKeyedGate>;
