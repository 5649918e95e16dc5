import { useSyncExternalStore } from "react";

/** The call in progress (product spec §3 Call state): empty, or who and how, plus the kick flag. */
export type Calling = {
  username: string;
  type: string;
  isLive: boolean;
  viewerOnly: boolean;
  meetingId: string;
  campaignId: string;
};

export type CallState = { calling: Calling | null; kick: boolean };

export type CallAction =
  | { type: "start"; call: Pick<Calling, "username" | "type"> & Partial<Calling> }
  | { type: "toggleType"; callType: string }
  | { type: "updateDestination"; id: string | number }
  | { type: "end" }
  | { type: "watchKick" }
  | { type: "resetKick" };

export const INITIAL_CALL_STATE: CallState = { calling: null, kick: false };

/** The transitions of spec §4.5 "Call state". */
export function callReducer(state: CallState, action: CallAction): CallState {
  switch (action.type) {
    case "start":
      return {
        ...state,
        calling: { isLive: false, viewerOnly: false, meetingId: "", campaignId: "", ...action.call },
      };
    case "toggleType":
      return state.calling ? { ...state, calling: { ...state.calling, type: action.callType } } : state;
    case "updateDestination":
      return state.calling
        ? { ...state, calling: { ...state.calling, username: `meeting-${action.id}` } }
        : state;
    case "end":
      return state.calling ? { ...state, calling: null } : state;
    case "watchKick":
      return state.kick ? state : { ...state, kick: true };
    case "resetKick":
      return state.kick ? { ...state, kick: false } : state;
  }
}

let current = INITIAL_CALL_STATE;
const listeners = new Set<() => void>();

/** The one call state of this tab (in memory only). */
export const callState = {
  get: (): CallState => current,
  dispatch(action: CallAction): void {
    const next = callReducer(current, action);
    if (next === current) return;
    current = next;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useCallState(): CallState {
  return useSyncExternalStore(callState.subscribe, callState.get);
}
