import { useSyncExternalStore } from "react";

/**
 * The app's call state (spec §3 "Call state (in memory)", §4 transitions): `calling` is null or the call the
 * user is in or watching; `kick` says a watched call was ended from elsewhere.
 */
export type Calling = {
  username: string;
  type: string;
  isLive: boolean;
  viewerOnly: boolean;
  meetingId: string;
  campaignId: string;
};
export type CallStateSnapshot = { calling: Calling | null; kick: boolean };

type CallStart = Pick<Calling, "username" | "type"> & Partial<Omit<Calling, "username" | "type">>;

let snapshot: CallStateSnapshot = { calling: null, kick: false };
const listeners = new Set<() => void>();

function set(next: CallStateSnapshot) {
  snapshot = next;
  for (const listener of listeners) listener();
}

export const callState = {
  get: (): CallStateSnapshot => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Starting a call sets the calling object (isLive and viewerOnly false, ids empty unless given). */
  start(call: CallStart) {
    set({
      ...snapshot,
      calling: { isLive: false, viewerOnly: false, meetingId: "", campaignId: "", ...call },
    });
  },
  /** Toggling changes only the call's type. */
  toggle(type: string) {
    if (snapshot.calling) set({ ...snapshot, calling: { ...snapshot.calling, type } });
  },
  /** Updating the destination sets username to meeting- followed by the id. */
  updateDestination(meetingId: string) {
    if (snapshot.calling)
      set({ ...snapshot, calling: { ...snapshot.calling, username: `meeting-${meetingId}`, meetingId } });
  },
  /** Ending clears it. */
  end() {
    set({ ...snapshot, calling: null });
  },
  /** A watched call was ended from elsewhere. */
  kick() {
    set({ ...snapshot, kick: true });
  },
  resetKick() {
    set({ ...snapshot, kick: false });
  },
};

export function useCallState(): CallStateSnapshot {
  return useSyncExternalStore(callState.subscribe, callState.get, callState.get);
}
