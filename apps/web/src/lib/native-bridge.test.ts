import { describe, expect, it, vi } from "vitest";
import {
  encodeNativeCommand,
  receiveNativeReply,
  requestNative,
  sendNativeCommand,
} from "./native-bridge.ts";

describe("the native bridge", () => {
  it("posts JSON commands to the app and refuses openUrl or searchContact without their fields", () => {
    const postMessage = vi.fn();
    expect(sendNativeCommand({ command: "logout" }, { postMessage })).toBe(true);
    expect(postMessage).toHaveBeenCalledWith('{"command":"logout"}');
    expect(() => encodeNativeCommand({ command: "openUrl", url: "", requestId: "r" })).toThrow(/url/);
    expect(() => encodeNativeCommand({ command: "searchContact", value: "x", requestId: "" })).toThrow();
  });

  it("is a logged no-op outside the app", () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    expect(sendNativeCommand({ command: "checkIn", kind: "app" }, undefined)).toBe(false);
    expect(info).toHaveBeenCalledWith(expect.stringContaining("not in the mobile app"));
    info.mockRestore();
  });

  it("resolves a request with the app's reply", async () => {
    const postMessage = vi.fn();
    const answer = requestNative(
      { command: "registerPush", requestId: "push-1" },
      { bridge: { postMessage } },
    );
    expect(receiveNativeReply("push-1", { token: "abc" })).toBe(true);
    await expect(answer).resolves.toEqual({ token: "abc" });
    expect(receiveNativeReply("push-1", {})).toBe(false);
  });
});
