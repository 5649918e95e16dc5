import { type AccountType, isViewingAs, LOCAL_STORAGE_KEYS, type ViewingAs } from "@switchboard/core";
import { useSyncExternalStore } from "react";

/**
 * The signed-in session as the browser keeps it (product spec §9 localStorage keys `token`, `id`,
 * `userData`, `viewingAs`). Nothing here talks to the server; the account layer and the sign-in pages do.
 */

/** What `userData` holds: who signed in, to which account, as far as the browser needs to know. */
export type StoredUserData = {
  /** Id the sign-in answered (the account's id, or the user's for a session without an account). */
  id: number;
  username: string;
  accountId: number | null;
  accountType: AccountType | null;
  /** An anonymous session (GET /api/v1/allocateTempUserSession): sign-up turns it into a real account. */
  temporary?: boolean;
  /** Filled in once the account has loaded. */
  userId?: number;
  email?: string | null;
  fullName?: string | null;
  superAdmin?: boolean;
};

export type StoredSession = { token: string; id: number; userData: StoredUserData | null };

type SessionStorage = Pick<Storage, "getItem" | "setItem" | "removeItem" | "clear" | "key" | "length">;

/** A Storage kept in memory for this page: the fallback where the browser denies localStorage. */
export function createMemoryStorage(): SessionStorage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    key: (index) => [...values.keys()][index] ?? null,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => {
      values.set(key, String(value));
    },
    removeItem: (key) => {
      values.delete(key);
    },
    clear: () => values.clear(),
  };
}

let memoryFallback: SessionStorage | undefined;

/**
 * localStorage, or (in a frame whose browser denies third-party storage) a page-lifetime memory store, so
 * that a page signed in by a one-time token still works for as long as it is open.
 */
function browserStorage(): SessionStorage | undefined {
  if (typeof window === "undefined") return undefined;
  try {
    return window.localStorage;
  } catch {
    memoryFallback ??= createMemoryStorage();
    return memoryFallback;
  }
}

function parseUserData(raw: string | null): StoredUserData | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredUserData> | null;
    if (!value || typeof value !== "object" || typeof value.id !== "number") return null;
    return {
      ...value,
      id: value.id,
      username: typeof value.username === "string" ? value.username : "",
      accountId: typeof value.accountId === "number" ? value.accountId : null,
      accountType: value.accountType ?? null,
    };
  } catch {
    return null;
  }
}

/** The stored session, or null when there is no token. */
export function readSession(storage: SessionStorage | undefined = browserStorage()): StoredSession | null {
  try {
    const token = storage?.getItem(LOCAL_STORAGE_KEYS.token);
    if (!token) return null;
    const userData = parseUserData(storage?.getItem(LOCAL_STORAGE_KEYS.userData) ?? null);
    const storedId = Number(storage?.getItem(LOCAL_STORAGE_KEYS.id));
    const id = Number.isSafeInteger(storedId) && storedId > 0 ? storedId : (userData?.id ?? 0);
    return { token, id, userData };
  } catch {
    return null;
  }
}

export function readToken(storage: SessionStorage | undefined = browserStorage()): string | null {
  return readSession(storage)?.token ?? null;
}

// --- change notification: one version number that every write bumps -------------------------------------

let version = 0;
const listeners = new Set<() => void>();

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

function onStorage(event: StorageEvent): void {
  // Another tab signed in or out, or chose another viewing-as value.
  if (
    event.key === null ||
    event.key === LOCAL_STORAGE_KEYS.token ||
    event.key === LOCAL_STORAGE_KEYS.viewingAs
  ) {
    changed();
  }
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0 && typeof window !== "undefined") window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== "undefined")
      window.removeEventListener("storage", onStorage);
  };
}

/** Stores a new session (after sign-in, sign-up, a one-time token or a mobile hand-off). */
export function saveSession(
  session: { token: string; id: number; userData: StoredUserData },
  storage: SessionStorage | undefined = browserStorage(),
): void {
  try {
    storage?.setItem(LOCAL_STORAGE_KEYS.token, session.token);
    storage?.setItem(LOCAL_STORAGE_KEYS.id, String(session.id));
    storage?.setItem(LOCAL_STORAGE_KEYS.userData, JSON.stringify(session.userData));
    // A new person may have a different rank: the old viewing-as choice does not carry over.
    storage?.removeItem(LOCAL_STORAGE_KEYS.viewingAs);
  } finally {
    changed();
  }
}

/** Merges what the account load taught us into `userData` (no change notification: nothing depends on it). */
export function updateUserData(
  patch: Partial<StoredUserData>,
  storage: SessionStorage | undefined = browserStorage(),
): void {
  try {
    const current = parseUserData(storage?.getItem(LOCAL_STORAGE_KEYS.userData) ?? null);
    if (!current) return;
    const next = { ...current, ...patch };
    if (JSON.stringify(next) !== JSON.stringify(current))
      storage?.setItem(LOCAL_STORAGE_KEYS.userData, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the session itself is unaffected.
  }
}

/** Keys that survive logout: the colour theme is a preference of this browser, not of the person. */
const KEPT_ON_LOGOUT: ReadonlySet<string> = new Set([LOCAL_STORAGE_KEYS.theme]);

/** Logout clears local storage (spec §4.5), keeping only the theme of this browser. */
export function clearLocalData(storage: SessionStorage | undefined = browserStorage()): void {
  try {
    if (storage) {
      const keys: string[] = [];
      for (let index = 0; index < storage.length; index += 1) {
        const key = storage.key(index);
        if (key !== null && !KEPT_ON_LOGOUT.has(key)) keys.push(key);
      }
      for (const key of keys) storage.removeItem(key);
    }
  } catch {
    // Nothing more we can do.
  } finally {
    changed();
  }
}

/** The viewing-as value kept in localStorage `viewingAs` (unchecked: restoreViewingAs decides). */
export function readStoredViewingAs(
  storage: SessionStorage | undefined = browserStorage(),
): ViewingAs | null {
  try {
    const value = storage?.getItem(LOCAL_STORAGE_KEYS.viewingAs);
    return isViewingAs(value) ? value : null;
  } catch {
    return null;
  }
}

export function saveViewingAs(
  value: ViewingAs,
  storage: SessionStorage | undefined = browserStorage(),
): void {
  try {
    if (storage?.getItem(LOCAL_STORAGE_KEYS.viewingAs) === value) return;
    storage?.setItem(LOCAL_STORAGE_KEYS.viewingAs, value);
  } catch {
    // The choice still applies until the page reloads.
  }
  changed();
}

// --- the account the calls act on ------------------------------------------------------------------------

let accountInViewId: number | null = null;

/** Set by the account layer: the id of the account in view, sent as `targetAccountId` with every call. */
export function setTargetAccountId(id: number | null): void {
  accountInViewId = id;
}

export function getTargetAccountId(): number | null {
  return accountInViewId;
}

// --- React -----------------------------------------------------------------------------------------------

type Snapshot = { version: number; session: StoredSession | null; viewingAs: ViewingAs | null };
let snapshot: Snapshot | null = null;

function getSnapshot(): Snapshot {
  if (!snapshot || snapshot.version !== version) {
    snapshot = { version, session: readSession(), viewingAs: readStoredViewingAs() };
  }
  return snapshot;
}

/** The stored session and viewing-as value; re-renders on sign-in, logout and another tab's changes. */
export function useStoredSession(): Snapshot {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** Test helper: forget the cached snapshot after writing to localStorage directly. */
export function sessionStorageChanged(): void {
  changed();
}
