import { createContext, useContext } from "react";
import type { AccountRef, AppPath } from "./account-path.ts";

const EMPTY_APP_PATH: AppPath = { account: null, accounts: [], accountPrefix: "/app", rest: [] };

export const AppPathContext = createContext<AppPath>(EMPTY_APP_PATH);

/** The parsed /app path: account in view, account prefix for links, and the remaining segments. */
export function useAppPath(): AppPath {
  return useContext(AppPathContext);
}

/** The account in view (from `/app/<partner|reseller|org|agent>/<id>`), or null. */
export function useAccountInView(): AccountRef | null {
  return useContext(AppPathContext).account;
}
