import { LOCAL_STORAGE_KEYS, type PersistedOnboarding, pickLatestPersisted } from "@switchboard/core";

/**
 * Where the wizard keeps its state (product spec §3, §4.1): local storage `onboarding`, written at once on
 * every update, and account settings `onboarding`, saved debounced (1000 ms; at once on exit and complete).
 * The saved object is core's persisted state plus `agentId`, the agent the wizard created (the steps after
 * generation work on it).
 */
export type SavedOnboarding = PersistedOnboarding & { agentId: number | null };

type Store = Pick<Storage, "getItem" | "setItem">;

/** The default local storage, or null where there is none (or it is blocked). */
export function browserStorage(): Store | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readLocalOnboarding(storage: Store | null): unknown {
  try {
    const raw = storage?.getItem(LOCAL_STORAGE_KEYS.onboarding);
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

export function writeLocalOnboarding(storage: Store | null, value: SavedOnboarding): void {
  try {
    storage?.setItem(LOCAL_STORAGE_KEYS.onboarding, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the settings copy still holds the state.
  }
}

/** The copy to resume from: the one of local storage and account settings updated last. */
export function latestSavedOnboarding(local: unknown, settings: unknown): unknown {
  return pickLatestPersisted(local, settings);
}

/** The agent a saved copy names, or null. */
export function savedAgentId(saved: unknown): number | null {
  if (typeof saved !== "object" || saved === null || !("agentId" in saved)) return null;
  const id = Number((saved as { agentId: unknown }).agentId);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export type SettingsSaver = {
  /** Saves `value` after `delayMs` (0: now), replacing a save still waiting. */
  schedule: (value: SavedOnboarding, delayMs: number) => void;
  /** Sends a waiting save now; resolves when every save sent so far has settled. */
  flush: () => Promise<void>;
  /** Resolves when every save sent so far has settled. */
  idle: () => Promise<void>;
  /** Drops a waiting save. */
  cancel: () => void;
};

type Timers = {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: never) => void;
};

/**
 * The debounced account-settings save. Saves go out one after another, in order; a failed save is swallowed
 * (the local state has already moved on, spec §4.1).
 */
export function createSettingsSaver(
  save: (value: SavedOnboarding) => Promise<unknown>,
  timers: Timers = {
    setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle),
  },
): SettingsSaver {
  let timer: unknown = null;
  let waiting: SavedOnboarding | null = null;
  let chain: Promise<void> = Promise.resolve();

  const stopTimer = () => {
    if (timer !== null) timers.clearTimeout(timer as never);
    timer = null;
  };
  const send = () => {
    stopTimer();
    if (waiting === null) return;
    const value = waiting;
    waiting = null;
    chain = chain.then(() =>
      save(value).then(
        () => undefined,
        () => undefined,
      ),
    );
  };

  return {
    schedule(value, delayMs) {
      waiting = value;
      stopTimer();
      if (delayMs <= 0) send();
      else timer = timers.setTimeout(send, delayMs);
    },
    flush() {
      send();
      return chain;
    },
    idle: () => chain,
    cancel() {
      stopTimer();
      waiting = null;
    },
  };
}
