import { lazy, Suspense } from "react";
import { type LoaderFunctionArgs, Navigate, useLocation } from "react-router";
import { FullPageLoader } from "../components/full-page-state.tsx";
import { FEATURE_PAGES, featureForSegments } from "../features/feature-pages.ts";
import { parseAppPath } from "../lib/account-path.ts";
import { startEarlyAccountLoad } from "../lib/early-account-load.ts";
import { useMobileApp } from "../lib/environment.tsx";
import { resolveHandoff } from "../lib/handoff.ts";
import { isLoggingOut } from "../lib/logout.ts";
import { signInPath } from "../lib/next-path.ts";
import { readSession, readStoredViewingAs, useStoredSession } from "../lib/session.ts";
import type { AppPageData } from "./app-page.tsx";

// The /app route's first, small step (issue #23: first load ≤ 150 KB gzip). A signed-out visit goes to
// /signin from here, so the signed-in shell (account layer, header, sidebar, overlays, product areas) is a
// chunk of its own that the sign-in page never loads.

type ShellModule = typeof import("./signed-in-shell.tsx");
let shellModule: Promise<ShellModule> | null = null;
let loadedShell: ShellModule["default"] | null = null;
/** Starts (once) the download of the shell's chunk. */
function loadShell(): Promise<ShellModule> {
  shellModule ??= import("./signed-in-shell.tsx").then(
    (module) => {
      loadedShell = module.default;
      return module;
    },
    (error: unknown) => {
      shellModule = null; // a failed download is tried again on the next visit
      throw error;
    },
  );
  return shellModule;
}

/** The account layer and the app layout: everything /app shows to a signed-in person. */
const LazySignedInShell = lazy(loadShell);

let loadedAppPage: typeof import("./app-page.tsx")["AppPage"] | null = null;
const SuspendingAppPage = lazy(async () => ({ default: (await import("./app-page.tsx")).AppPage }));

/** The page of the product area in view (its chunk is fetched by the route's loader). */
export function LazyAppPage() {
  const Page = loadedAppPage ?? SuspendingAppPage;
  return <Page />;
}

/**
 * Whether the address can only lead to /signin: no stored session, no sign-in hand-off in the query
 * (one-time token, the mobile app's parameters) and no logout in progress.
 */
function signedOutVisit(search: string, isMobileApp: boolean, signedIn = readSession() !== null): boolean {
  return !signedIn && !isLoggingOut() && resolveHandoff(search, isMobileApp).kind === "none";
}

/** Element of the /app route: signed-out visitors go to /signin, everyone else gets the shell. */
export function AppGate() {
  const { pathname, search, hash } = useLocation();
  const mobileApp = useMobileApp();
  const { session } = useStoredSession();
  if (signedOutVisit(search, mobileApp.isMobileApp, session !== null))
    return <Navigate to={signInPath(`${pathname}${search}${hash}`)} replace />;
  // Once the loader has fetched the chunk the shell renders at once, without a suspended first render.
  const SignedInShell = loadedShell ?? LazySignedInShell;
  return (
    <Suspense fallback={<FullPageLoader label="Loading your account…" />}>
      <SignedInShell />
    </Suspense>
  );
}

/**
 * Loader of the /app catch-all: for a signed-in visit it loads the product area's chunk before the route
 * changes (see app-page.tsx); a signed-out visit loads nothing, the gate sends it to /signin.
 */
export async function appPageLoader(args: LoaderFunctionArgs): Promise<AppPageData> {
  // The mobile app's hand-off parameters count as a possible sign-in: load the page for them too.
  const url = new URL(args.request.url);
  if (signedOutVisit(url.search, true)) return { slug: null };
  const appPath = parseAppPath(url.pathname);
  startAccountLoad(url, appPath?.account?.id ?? null);
  // The area's chunk starts now too, not once app-page.tsx has loaded and looked the area up.
  const slug = featureForSegments(appPath?.rest ?? []);
  if (slug) FEATURE_PAGES[slug]().catch(() => {});
  // The shell's chunk downloads beside the page's: the gate renders the shell only once this loader is
  // done, so loading it there would chain a third request after them (issue #23: no request chains).
  const [, page] = await Promise.all([loadShell(), import("./app-page.tsx")]);
  loadedAppPage = page.AppPage;
  return page.loadAppPage(args);
}

let firstLoad = true;
/**
 * On the app's first load, a stored session's account starts loading now, beside the chunks, rather than
 * once the shell renders (a hand-off or a sign-up in progress leaves it to the account layer). Later
 * navigations have the account already.
 */
function startAccountLoad(url: URL, targetAccountId: number | null) {
  if (!firstLoad) return;
  firstLoad = false;
  const session = readSession();
  if (!session || session.userData?.temporary || resolveHandoff(url.search, true).kind !== "none") return;
  startEarlyAccountLoad({
    token: session.token,
    targetAccountId,
    viewingAs: readStoredViewingAs(),
  });
}

/** Only a new path reloads the page: overlays and filters change the query alone. */
export function shouldRevalidateAppPage({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: {
  currentUrl: URL;
  nextUrl: URL;
  defaultShouldRevalidate: boolean;
}) {
  return currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate;
}
