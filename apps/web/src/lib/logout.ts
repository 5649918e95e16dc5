import { clearLocalData, readToken } from "./session.ts";
import { revokeToken } from "./shell-api.ts";

/** The native app's bridge, present when the page runs inside the mobile app's web view. */
export type NativeBridge = { postMessage: (message: string) => void };

declare global {
  interface Window {
    ReactNativeWebView?: NativeBridge;
  }
}

/** Where logout leads (spec §4.5): /mobile/start inside the mobile app, otherwise /app. */
export function logoutDestination(isMobileApp: boolean): "/mobile/start" | "/app" {
  return isMobileApp ? "/mobile/start" : "/app";
}

/** The command the native app receives when the user logs out. */
export const NATIVE_LOGOUT_MESSAGE = JSON.stringify({ command: "logout" }); // = encodeNativeCommand (native-bridge.ts)

/** sessionStorage key: why the user was signed out, shown once on the sign-in page. */
export const SIGNED_OUT_REASON_KEY = "signedOutReason";

export type LogoutOptions = {
  isMobileApp: boolean;
  /** Shown on the sign-in page (e.g. the account could not be loaded). */
  reason?: string;
  /** Sign out everywhere: every session of the user ends, not only this one. */
  everywhere?: boolean;
  revoke?: (token: string, everywhere: boolean) => Promise<unknown>;
  /** Full-page navigation, so nothing of the signed-out user stays in memory. */
  assign?: (url: string) => void;
  bridge?: NativeBridge | undefined;
};

const REVOKE_TIMEOUT_MS = 3000;

let defaultAssign = (url: string) => window.location.assign(url);
let inProgress = false;

/**
 * True from the start of a logout until the page is left: the account layer then shows "Signing out…"
 * instead of sending the (now signed-out) visitor to /signin itself.
 */
export function isLoggingOut(): boolean {
  return inProgress;
}

/** Tests replace the full-page navigation (jsdom has none); this also ends a logout in progress. */
export function setLogoutNavigation(assign: (url: string) => void): void {
  defaultAssign = assign;
  inProgress = false;
}

/**
 * Logout (spec §4.5): POST /api/v1/logout, clear local storage; in the mobile app signal the native app
 * and go to /mobile/start, otherwise redirect to /app (which asks to sign in again).
 */
export async function logout(options: LogoutOptions): Promise<void> {
  inProgress = true;
  const token = readToken();
  const revoke = options.revoke ?? revokeToken;
  if (token) {
    await Promise.race([
      revoke(token, options.everywhere === true).catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, REVOKE_TIMEOUT_MS)),
    ]);
  }
  clearLocalData();
  if (options.reason) {
    try {
      window.sessionStorage.setItem(SIGNED_OUT_REASON_KEY, options.reason);
    } catch {
      // The reason is a courtesy.
    }
  }
  const bridge = "bridge" in options ? options.bridge : window.ReactNativeWebView;
  if (options.isMobileApp) {
    try {
      bridge?.postMessage(NATIVE_LOGOUT_MESSAGE);
    } catch {
      // The native app may not listen; the page still leaves.
    }
  }
  const assign = options.assign ?? defaultAssign;
  assign(logoutDestination(options.isMobileApp));
}

/** Reads and forgets the reason of the last sign-out. */
export function takeSignedOutReason(): string | null {
  try {
    const reason = window.sessionStorage.getItem(SIGNED_OUT_REASON_KEY);
    window.sessionStorage.removeItem(SIGNED_OUT_REASON_KEY);
    return reason;
  } catch {
    return null;
  }
}
