import { useSyncExternalStore } from "react";
import { ExternalStore } from "./external-store.ts";

/**
 * What this browser tab saved or created, by kind and id, so the list it returns to can show it in place
 * ("Saved", "Added") after the overlay that saved it closed and its toast faded (issue #23 item 11).
 * Kept for the tab's life: a reload starts clean.
 */
type Marks = Readonly<Record<string, { label: string; at: number }>>;

class SavedMarks extends ExternalStore<{ marks: Marks }> {
  mark(kind: string, id: number | string, label: string): void {
    this.set({ marks: { ...this.state.marks, [`${kind}:${id}`]: { label, at: Date.now() } } });
  }
}

export const savedMarks = new SavedMarks({ marks: {} });

/** Marks a record as just saved (`label`: "Saved", "Added", ...). */
export function markSaved(kind: string, id: number | string, label = "Saved"): void {
  savedMarks.mark(kind, id, label);
}

/** The mark of a record this tab saved, or null. */
export function useSavedMark(kind: string, id: number | string): { label: string; at: number } | null {
  const { marks } = useSyncExternalStore(savedMarks.subscribe, savedMarks.getState);
  return marks[`${kind}:${id}`] ?? null;
}
