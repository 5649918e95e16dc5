import { describe, expect, it } from "vitest";
import { type CallState, callReducer, callState, INITIAL_CALL_STATE } from "./call-state.ts";

describe("call state (spec §4.5)", () => {
  it("starts with the defaults, toggles only the type, and points the destination at a meeting", () => {
    let state: CallState = callReducer(INITIAL_CALL_STATE, {
      type: "start",
      call: { username: "bluebird", type: "audio" },
    });
    expect(state.calling).toEqual({
      username: "bluebird",
      type: "audio",
      isLive: false,
      viewerOnly: false,
      meetingId: "",
      campaignId: "",
    });
    state = callReducer(state, { type: "toggleType", callType: "video" });
    expect(state.calling).toMatchObject({ username: "bluebird", type: "video" });
    state = callReducer(state, { type: "updateDestination", id: 42 });
    expect(state.calling?.username).toBe("meeting-42");
    expect(callReducer(state, { type: "end" }).calling).toBeNull();
  });

  it("sets the kick flag on a watch-kick and clears it on reset; no call means nothing to toggle", () => {
    const kicked = callReducer(INITIAL_CALL_STATE, { type: "watchKick" });
    expect(kicked.kick).toBe(true);
    expect(callReducer(kicked, { type: "resetKick" }).kick).toBe(false);
    expect(callReducer(INITIAL_CALL_STATE, { type: "toggleType", callType: "video" })).toBe(
      INITIAL_CALL_STATE,
    );
  });

  it("notifies subscribers of the tab's store only on a change", () => {
    let calls = 0;
    const stop = callState.subscribe(() => calls++);
    callState.dispatch({ type: "end" });
    callState.dispatch({ type: "start", call: { username: "a", type: "audio" } });
    callState.dispatch({ type: "end" });
    stop();
    expect(calls).toBe(2);
  });
});
