import type { Access } from "../access/access.ts";

export type WriteListener = (access: Access | undefined) => void;

/**
 * Told after each call that may have written (any method but GET), before its answer is sent, with the
 * call's access (undefined for calls without a token). This instance's caches forget what such a call may
 * have changed at once, so its caller reads their own writes; other instances learn of the change from the
 * database's notices a moment later.
 */
export function createWriteListeners() {
  const listeners = new Set<WriteListener>();
  return {
    onWrite(listener: WriteListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    wrote(access: Access | undefined): void {
      for (const listener of listeners) listener(access);
    },
  };
}

export type WriteListeners = ReturnType<typeof createWriteListeners>;
