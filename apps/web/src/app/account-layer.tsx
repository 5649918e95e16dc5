import { type ReactNode, useMemo } from "react";
import { useLocation } from "react-router";
import { parseAppPath } from "../lib/account-path.ts";
import { AppPathContext } from "./account-context.ts";

/**
 * Wraps every /app route (spec §2.2). For now it provides the account in view parsed from the path; sign-in,
 * loading the account and refreshing it when the path names another one come in a later issue.
 */
export function AccountLayer({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const appPath = useMemo(
    () => parseAppPath(pathname) ?? { account: null, accounts: [], accountPrefix: "/app", rest: [] },
    [pathname],
  );
  return <AppPathContext.Provider value={appPath}>{children}</AppPathContext.Provider>;
}
