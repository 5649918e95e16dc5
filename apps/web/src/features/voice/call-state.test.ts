import { afterEach, describe, expect, it } from "vitest";
import { callState } from "./call-state.ts";

afterEach(() => {
  callState.end();
  callState.resetKick();
});

describe("call state (spec §4)", () => {
  it("starting sets the calling object with its defaults; toggling changes only its type", () => {
    callState.start({ username: "front-desk", type: "audio" });
    expect(callState.get().calling).toEqual({
      username: "front-desk",
      type: "audio",
      isLive: false,
      viewerOnly: false,
      meetingId: "",
      campaignId: "",
    });
    callState.toggle("video");
    expect(callState.get().calling).toMatchObject({ username: "front-desk", type: "video", isLive: false });
  });

  it("updating the destination sets username to meeting-<id>; ending clears the call", () => {
    callState.start({ username: "front-desk", type: "audio", isLive: true });
    callState.updateDestination("abc");
    expect(callState.get().calling).toMatchObject({
      username: "meeting-abc",
      meetingId: "abc",
      isLive: true,
    });
    callState.end();
    expect(callState.get().calling).toBeNull();
  });

  it("a watch-kick sets the kick flag and a reset clears it; listeners hear each change", () => {
    let heard = 0;
    const stop = callState.subscribe(() => {
      heard += 1;
    });
    callState.kick();
    expect(callState.get().kick).toBe(true);
    callState.resetKick();
    expect(callState.get().kick).toBe(false);
    stop();
    callState.kick();
    expect(heard).toBe(2);
  });
});
