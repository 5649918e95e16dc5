import type { PermissionFlag, ViewingAs } from "@switchboard/core";
import type { QueryClient } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import type { StoredSession } from "./session.ts";
import type { AccountView } from "./shell-api.ts";

export type Account = AccountView["account"];

/** What every /app page knows once the account layer has loaded the account in view. */
export type AccountState = {
  session: StoredSession;
  /** GET /api/v1/account for the account in view: the account, the caller, viewing-as and the flags. */
  view: AccountView;
  /** The viewing-as value in force. */
  viewingAs: ViewingAs;
  /** The path names another account whose load is still running: `view` is still the previous one. */
  switching: boolean;
  /** Chooses another viewing-as value (kept in localStorage `viewingAs`) and reloads the account. */
  setViewingAs: (value: ViewingAs) => void;
  /** Reloads the account in view (after an edit). */
  refresh: () => Promise<void>;
  /** Logout per spec §4.5. */
  logout: (reason?: string, options?: { everywhere?: boolean }) => Promise<void>;
};

export const AccountStateContext = createContext<AccountState | null>(null);

/** The account state; only inside the account layer (every /app route). */
export function useAccountState(): AccountState {
  const state = useContext(AccountStateContext);
  if (!state) throw new Error("useAccountState() is used outside the account layer");
  return state;
}

/** The account state, or null outside the account layer (or before it has loaded). */
export function useOptionalAccountState(): AccountState | null {
  return useContext(AccountStateContext);
}

/** Whether the permission flag allows it for the account in view (false before the account loads). */
export function usePermission(flag: PermissionFlag): boolean {
  return useContext(AccountStateContext)?.view.permissions[flag] === true;
}

/** The account in view as loaded from the server. */
export function useLoadedAccount(): Account {
  return useAccountState().view.account;
}

/** Query-key part that changes with the account in view and the viewing-as value. */
export function useAccountKey(): readonly [number, ViewingAs] {
  const { view, viewingAs } = useAccountState();
  return [view.account.id, viewingAs] as const;
}

/** Forgets every loaded query of the previous session (the host's profile is not the person's: it stays). */
export function forgetSessionQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "host-profile" });
}
