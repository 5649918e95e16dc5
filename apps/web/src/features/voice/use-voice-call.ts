import { useEffect, useState, useSyncExternalStore } from "react";
import { readToken } from "../../lib/session.ts";
import { wsProtocols } from "../../lib/ws-auth.ts";
import { type CallTarget, callUrl } from "./call-url.ts";
import { type CallState, VoiceCall } from "./voice-call.ts";

/** A browser test call bound to the component: hung up and the microphone released on unmount. */
export function useVoiceCall(target: CallTarget): { call: VoiceCall; state: CallState } {
  const [call] = useState(
    () =>
      new VoiceCall(
        () => callUrl(target),
        () => wsProtocols(readToken()),
      ),
  );
  useEffect(() => () => call.dispose(), [call]);
  const state = useSyncExternalStore(call.subscribe, call.getState, call.getState);
  return { call, state };
}
