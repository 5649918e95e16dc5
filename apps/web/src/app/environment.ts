import { useMemo } from "react";
import { useLocation } from "react-router";
import { isEmbedded } from "../lib/app-embed.ts";
import { detectMobileApp, type MobileAppInfo } from "../lib/mobile-app.ts";

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** True when the app chrome must be hidden: `appEmbed` in the query or a cross-origin frame. */
export function useEmbedded(): boolean {
  const { search } = useLocation();
  return useMemo(() => isEmbedded(search, typeof window === "undefined" ? undefined : window), [search]);
}

/** Native mobile-app flags, kept for the session (sessionStorage) once seen in a query. */
export function useMobileApp(): MobileAppInfo {
  const { search } = useLocation();
  return useMemo(() => detectMobileApp(search, sessionStore()), [search]);
}
