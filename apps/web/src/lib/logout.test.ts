import { describe, expect, it, vi } from "vitest";
import { logout, logoutDestination, NATIVE_LOGOUT_MESSAGE, takeSignedOutReason } from "./logout.ts";
import { readSession, saveSession } from "./session.ts";

function signIn() {
  saveSession({
    token: "tok",
    id: 42,
    userData: { id: 42, username: "bluebird", accountId: 42, accountType: "organization" },
  });
  window.localStorage.setItem("viewingAs", "owner");
  window.localStorage.setItem("onboarding", "{}");
  window.localStorage.setItem("theme", "dark");
}

describe("logout (spec §4.5)", () => {
  it("goes to /mobile/start in the mobile app and to /app otherwise", () => {
    expect(logoutDestination(true)).toBe("/mobile/start");
    expect(logoutDestination(false)).toBe("/app");
  });

  it("revokes the token, clears local storage (keeping the theme) and redirects to /app", async () => {
    signIn();
    const revoke = vi.fn(async () => ({ success: true }));
    const assign = vi.fn();
    await logout({ isMobileApp: false, revoke, assign, bridge: undefined });
    expect(revoke).toHaveBeenCalledWith("tok", false);
    expect(readSession()).toBeNull();
    for (const key of ["token", "id", "userData", "viewingAs", "onboarding"])
      expect(window.localStorage.getItem(key)).toBeNull();
    expect(window.localStorage.getItem("theme")).toBe("dark");
    expect(assign).toHaveBeenCalledWith("/app");
  });

  it("in the mobile app signals the native app and goes to /mobile/start", async () => {
    signIn();
    const bridge = { postMessage: vi.fn() };
    const assign = vi.fn();
    await logout({ isMobileApp: true, revoke: async () => ({}), assign, bridge });
    expect(bridge.postMessage).toHaveBeenCalledWith(NATIVE_LOGOUT_MESSAGE);
    expect(JSON.parse(NATIVE_LOGOUT_MESSAGE)).toEqual({ command: "logout" });
    expect(assign).toHaveBeenCalledWith("/mobile/start");
  });

  it("uses window.ReactNativeWebView when present", async () => {
    signIn();
    const postMessage = vi.fn();
    window.ReactNativeWebView = { postMessage };
    try {
      await logout({ isMobileApp: true, revoke: async () => ({}), assign: () => {} });
      expect(postMessage).toHaveBeenCalledWith(NATIVE_LOGOUT_MESSAGE);
    } finally {
      delete window.ReactNativeWebView;
    }
  });

  it("still signs out locally when the server cannot be reached", async () => {
    signIn();
    const assign = vi.fn();
    await logout({
      isMobileApp: false,
      revoke: () => Promise.reject(new Error("offline")),
      assign,
      bridge: undefined,
      reason: "Account not found",
    });
    expect(readSession()).toBeNull();
    expect(assign).toHaveBeenCalledWith("/app");
    expect(takeSignedOutReason()).toBe("Account not found");
    expect(takeSignedOutReason()).toBeNull();
  });
});
