import { VOICE_MESSAGES } from "@switchboard/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VoiceCall } from "./voice-call.ts";

function withMicrophone(getUserMedia: (() => Promise<MediaStream>) | undefined) {
  Object.defineProperty(navigator, "mediaDevices", {
    configurable: true,
    value: getUserMedia ? { getUserMedia } : undefined,
  });
}

afterEach(() => {
  withMicrophone(undefined);
  vi.unstubAllGlobals();
});

describe("a browser test call before it connects", () => {
  it("says the microphone was blocked when the person or the browser refuses it", async () => {
    withMicrophone(() => Promise.reject(new DOMException("denied", "NotAllowedError")));
    const call = new VoiceCall(() => "ws://localhost/api/v1/voice/call?agentId=7");
    await call.start();
    expect(call.getState()).toMatchObject({ status: "denied", message: VOICE_MESSAGES.microphoneDenied });
  });

  it("says there is no microphone when none is found, or the page cannot have one", async () => {
    withMicrophone(() => Promise.reject(new DOMException("none", "NotFoundError")));
    const call = new VoiceCall(() => "ws://localhost/api/v1/voice/call?agentId=7");
    await call.start();
    expect(call.getState()).toMatchObject({ status: "no-microphone", message: VOICE_MESSAGES.noMicrophone });

    withMicrophone(undefined);
    vi.stubGlobal("isSecureContext", false);
    await call.start();
    expect(call.getState()).toMatchObject({ status: "no-microphone", message: VOICE_MESSAGES.insecurePage });
  });

  it("stops asking when hung up while the microphone prompt is open", async () => {
    let grant!: (stream: MediaStream) => void;
    withMicrophone(() => new Promise((resolve) => (grant = resolve)));
    const stop = vi.fn();
    const call = new VoiceCall(() => "ws://localhost/api/v1/voice/call?agentId=7");
    const started = call.start();
    expect(call.getState().status).toBe("connecting");
    call.hangup();
    grant({ getTracks: () => [{ stop }] } as unknown as MediaStream);
    await started;
    expect(call.getState()).toMatchObject({ status: "ended", message: VOICE_MESSAGES.hungUp });
    expect(stop).toHaveBeenCalled();
  });
});
