import { Button } from "@mantine/core";
import type { ViewingAs } from "@switchboard/core";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { FullPageError, FullPageLoader, RetryButton } from "../components/full-page-state.tsx";
import { AppPathContext } from "../lib/account-context.ts";
import { accountLoadFailure, viewingAsToStore } from "../lib/account-load.ts";
import { type AppPath, checkAccountType, parseAppPath } from "../lib/account-path.ts";
import { type AccountState, AccountStateContext, forgetSessionQueries } from "../lib/account-state.ts";
import { takeEarlyAccountLoad } from "../lib/early-account-load.ts";
import { useMobileApp } from "../lib/environment.tsx";
import {
  checkOneTimeAnswer,
  HANDOFF_MESSAGES,
  type Handoff,
  resolveHandoff,
  searchWithoutHandoff,
} from "../lib/handoff.ts";
import { isLoggingOut, logout } from "../lib/logout.ts";
import { signInPath } from "../lib/next-path.ts";
import {
  type StoredSession,
  saveSession,
  saveViewingAs,
  setTargetAccountId,
  updateUserData,
  useStoredSession,
} from "../lib/session.ts";
import { errorMessage, exchangeOneTimeToken, fetchAccountView } from "../lib/shell-api.ts";

const EMPTY_APP_PATH: AppPath = { account: null, accounts: [], accountPrefix: "/app", rest: [] };

/** A one-time token is single use: exchange each once, even when React runs an effect twice. */
const exchanges = new Map<string, Promise<{ token: string; username: string; id: number }>>();

function exchangeOnce(oneTimeToken: string) {
  let pending = exchanges.get(oneTimeToken);
  if (!pending) {
    pending = exchangeOneTimeToken(oneTimeToken).then(checkOneTimeAnswer);
    exchanges.set(oneTimeToken, pending);
  }
  return pending;
}

/** Signs in from the address (`?oneTimeToken=`, or the mobile app's hand-off), then drops the parameters. */
function HandoffGate({ handoff }: { handoff: Exclude<Handoff, { kind: "none" }> }) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const clean = `${pathname}${searchWithoutHandoff(search)}${hash}`;

  useEffect(() => {
    if (handoff.kind === "error") return;
    let active = true;
    const finish = (session: { token: string; id: number; username: string }) => {
      // Nothing loaded for whoever was signed in before may show for the new session.
      forgetSessionQueries(queryClient);
      saveSession({
        token: session.token,
        id: session.id,
        userData: { id: session.id, username: session.username, accountId: null, accountType: null },
      });
      if (active) navigate(clean, { replace: true });
    };
    if (handoff.kind === "session") {
      finish(handoff);
      return;
    }
    setFailure(null);
    exchangeOnce(handoff.oneTimeToken).then(finish, (error: unknown) => {
      if (active) setFailure(errorMessage(error, HANDOFF_MESSAGES.couldNotAuthenticate));
    });
    return () => {
      active = false;
    };
  }, [handoff, clean, navigate, queryClient]);

  const message = handoff.kind === "error" ? handoff.message : failure;
  if (message) {
    return (
      <FullPageError title="Sign-in failed" message={message}>
        <Button component={Link} to={signInPath(clean)}>
          Sign in
        </Button>
      </FullPageError>
    );
  }
  return <FullPageLoader label="Signing you in…" />;
}

function AccountLoader({
  session,
  storedViewingAs,
  appPath,
  children,
}: {
  session: StoredSession;
  storedViewingAs: ViewingAs | null;
  appPath: AppPath;
  children: ReactNode;
}) {
  const mobileApp = useMobileApp();
  const targetId = appPath.account?.id ?? null;
  // Deferred: the whole signed-in app renders when the account lands, in a transition React can slice.
  const query = useDeferredValue(
    useQuery({
      queryKey: ["account", session.token, targetId, storedViewingAs],
      queryFn: ({ signal }) =>
        takeEarlyAccountLoad({
          token: session.token,
          targetAccountId: targetId,
          viewingAs: storedViewingAs,
        }) ??
        fetchAccountView({
          token: session.token,
          targetAccountId: targetId,
          viewingAs: storedViewingAs,
          signal,
        }),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
      retry: (count, error) => accountLoadFailure(error) === "retry" && count < 2,
    }),
  );
  const view = query.data;
  const switching = query.isPlaceholderData;
  const failure = query.isError ? accountLoadFailure(query.error) : null;
  const loggingOut = useRef(false);

  // A refused account load logs the user out (spec §4.5).
  useEffect(() => {
    if (failure !== "logout" || loggingOut.current) return;
    loggingOut.current = true;
    void logout({ isMobileApp: mobileApp.isMobileApp, reason: errorMessage(query.error) });
  }, [failure, query.error, mobileApp.isMobileApp]);

  // Remember what the load taught us, and keep only a viewing-as value the user's rank permits.
  useEffect(() => {
    if (!view || switching) return;
    updateUserData({
      accountId: view.homeAccount?.id ?? null,
      accountType: view.homeAccount?.accountType ?? null,
      username: view.homeAccount?.username ?? session.userData?.username ?? "",
      userId: view.user.id,
      email: view.user.email,
      fullName: view.user.fullName,
      superAdmin: view.user.superAdmin,
    });
    const restored = viewingAsToStore(storedViewingAs, view);
    if (restored) saveViewingAs(restored);
  }, [view, switching, storedViewingAs, session.userData?.username]);

  if (view && !switching) setTargetAccountId(view.account.id);

  const state = useMemo<AccountState | null>(
    () =>
      view
        ? {
            session,
            view,
            viewingAs: view.viewingAs,
            switching,
            setViewingAs: (value) => saveViewingAs(value),
            refresh: async () => {
              await query.refetch();
            },
            logout: (reason, options) =>
              logout({ isMobileApp: mobileApp.isMobileApp, reason, everywhere: options?.everywhere }),
          }
        : null,
    [view, session, switching, query.refetch, mobileApp.isMobileApp],
  );

  if (failure === "logout") return <FullPageLoader label="Signing out…" />;
  if (failure === "retry" && (!view || !switching)) {
    return (
      <FullPageError title="Your account could not be loaded" message={errorMessage(query.error)}>
        <RetryButton onClick={() => void query.refetch()} />
      </FullPageError>
    );
  }
  if (!state || !view) return <FullPageLoader label="Loading your account…" />;
  const mismatch = switching ? null : checkAccountType(appPath.account?.type, view.account.accountType);
  if (mismatch) {
    return (
      <FullPageError title="This account cannot be shown here" message={mismatch}>
        <Button component={Link} to="/app">
          Go to my account
        </Button>
      </FullPageError>
    );
  }
  return <AccountStateContext.Provider value={state}>{children}</AccountStateContext.Provider>;
}

/**
 * Wraps every /app route (spec §2.2): signs in from a one-time token or the mobile app's hand-off, sends
 * signed-out visitors to /signin, and loads the account in view named by the path (`/app/org/42` ->
 * organisation 42, default the user's own) with the viewing-as value in force, again whenever the path
 * names another account. A refused load logs out; a path whose account type differs from the loaded
 * account's fails with "Account type does not match".
 */
export function AccountLayer({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const mobileApp = useMobileApp();
  const { session, viewingAs } = useStoredSession();
  const appPath = useMemo(() => parseAppPath(pathname) ?? EMPTY_APP_PATH, [pathname]);
  const handoff = useMemo(
    () => resolveHandoff(search, mobileApp.isMobileApp),
    [search, mobileApp.isMobileApp],
  );

  let content: ReactNode;
  if (handoff.kind !== "none") {
    content = <HandoffGate handoff={handoff} />;
  } else if (!session && isLoggingOut()) {
    content = <FullPageLoader label="Signing out…" />;
  } else if (!session) {
    content = <Navigate to={signInPath(`${pathname}${search}${hash}`)} replace />;
  } else if (session.userData?.temporary) {
    content = <Navigate to={signInPath(`${pathname}${search}${hash}`, "signup")} replace />;
  } else {
    content = (
      <AccountLoader session={session} storedViewingAs={viewingAs} appPath={appPath}>
        {children}
      </AccountLoader>
    );
  }
  return <AppPathContext.Provider value={appPath}>{content}</AppPathContext.Provider>;
}
