import { createContext, type ReactNode, useContext, useEffect, useMemo } from "react";
import { useLocation } from "react-router";
import { isEmbedded } from "./app-embed.ts";
import { detectMobileApp, type MobileAppInfo, NO_MOBILE_APP, viewportContent } from "./mobile-app.ts";

export type ShellEnvironment = {
  /** The app chrome is hidden: `appEmbed` in the query or a cross-origin frame (spec §2.2). */
  embedded: boolean;
  /** Native mobile-app flags, kept for the session once seen in a query. */
  mobileApp: MobileAppInfo;
};

const EnvironmentContext = createContext<ShellEnvironment>({ embedded: false, mobileApp: NO_MOBILE_APP });

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Reads the embed and mobile-app flags on every route (and saves the mobile-app ones for the session). */
export function EnvironmentProvider({ children }: { children: ReactNode }) {
  const { search } = useLocation();
  const value = useMemo<ShellEnvironment>(
    () => ({
      embedded: isEmbedded(search, typeof window === "undefined" ? undefined : window),
      mobileApp: detectMobileApp(search, sessionStore()),
    }),
    [search],
  );
  const { isMobileApp } = value.mobileApp;
  useEffect(() => {
    document.querySelector('meta[name="viewport"]')?.setAttribute("content", viewportContent(isMobileApp));
  }, [isMobileApp]);
  return <EnvironmentContext.Provider value={value}>{children}</EnvironmentContext.Provider>;
}

export function useEmbedded(): boolean {
  return useContext(EnvironmentContext).embedded;
}

export function useMobileApp(): MobileAppInfo {
  return useContext(EnvironmentContext).mobileApp;
}
