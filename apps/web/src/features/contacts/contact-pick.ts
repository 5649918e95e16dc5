/**
 * The `contacts` overlay opened as a picker (`?contacts=pick`) hands the chosen contact's address to
 * whoever asked in this tab (the inbox compose), then closes. No React and no API here: the asking screen
 * imports only this.
 */

export type PickedContact = { name: string; address: string };

/** The overlay value that opens the contacts overlay as a picker. */
export const CONTACT_PICK_VALUE = "pick";

const listeners = new Set<(picked: PickedContact) => void>();

/** Listens for picks while mounted; answers the unsubscribe. */
export function onContactPicked(listener: (picked: PickedContact) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether any screen in this tab is waiting for a pick. */
export function contactPickWanted(): boolean {
  return listeners.size > 0;
}

export function pickContact(picked: PickedContact): void {
  for (const listener of listeners) listener(picked);
}
