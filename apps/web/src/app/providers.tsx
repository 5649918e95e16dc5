import { MantineProvider } from "@mantine/core";
import { useNotifications } from "@mantine/notifications";
import { NavigationProgress } from "@mantine/nprogress";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useDeferredValue, useEffect, useState } from "react";
import { useConfirmState } from "../components/confirm/confirm-store.ts";
import { applyAppScripts, lookupHost } from "../lib/host-lookup.ts";
import { type HostProfile, HostProfileContext, MAIN_HOST_PROFILE } from "../lib/host-profile.ts";
import { DEFAULT_THEME, themeColorSchemeManager } from "../lib/theme-storage.ts";
import { cssVariablesResolver, theme } from "./theme.ts";

/**
 * Invalidating never aborts a load in flight (TanStack's default aborts it and sends it again): a save and the
 * realtime event it causes invalidate the same lists within milliseconds, and each abort was a request wasted
 * (issue #23 item 10). A load that was in flight may have read the data before the change, so once it has
 * landed the query is loaded once more; what the user sees is never older than the change.
 */
class AppQueryClient extends QueryClient {
  override async invalidateQueries(...[filters, options]: Parameters<QueryClient["invalidateQueries"]>) {
    if (options?.cancelRefetch === true) return super.invalidateQueries(filters, options);
    const inFlight = new Set(
      this.getQueryCache()
        .findAll(filters)
        .filter((query) => query.state.fetchStatus === "fetching"),
    );
    await super.invalidateQueries(filters, { ...options, cancelRefetch: false });
    if (inFlight.size === 0 || filters?.refetchType === "none") return;
    await this.refetchQueries(
      { type: filters?.refetchType ?? "active", predicate: (query) => inFlight.has(query) },
      { ...options, cancelRefetch: false },
    );
  }
}

export function createQueryClient(): QueryClient {
  return new AppQueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

const colorSchemeManager = themeColorSchemeManager();

// The toast area and the confirm dialog load on first use, not with the first page (issue #23: the sign-in
// page's first load stays small). Their stores are tiny and always there: a toast or a confirm asked for
// before the component has loaded shows as soon as it has.
const ToastArea = lazy(async () => ({ default: (await import("../components/toast-area.tsx")).ToastArea }));
const ConfirmHost = lazy(async () => ({
  default: (await import("../components/confirm/confirm-host.tsx")).ConfirmHost,
}));

/** Becomes true once `wanted` has been true, and stays so (a component loaded once stays mounted). */
function useLatch(wanted: boolean): boolean {
  const [latched, setLatched] = useState(wanted);
  if (wanted && !latched) setLatched(true);
  return latched || wanted;
}

function LazyNotifications() {
  const shown = useLatch(useNotifications().notifications.length > 0);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ToastArea />
    </Suspense>
  );
}

function LazyConfirmHost() {
  const asked = useLatch(useConfirmState() !== null);
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmHost />
    </Suspense>
  );
}

const LOADING_HOST_PROFILE: HostProfile = { ...MAIN_HOST_PROFILE, loading: true };

/**
 * Looks up this page's host once at start (POST /api/v1/domain/lookup): on a white-label host the app shows
 * that profile's name and image, uses its support URL and applies its settings (its app scripts load).
 */
function HostProfileLookup({ children }: { children: ReactNode }) {
  const hostname = typeof window === "undefined" ? "" : window.location.hostname;
  const query = useQuery({
    queryKey: ["host-profile", hostname],
    queryFn: () => lookupHost(hostname),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  // Deferred: a new profile re-renders the whole app, in a transition React can slice.
  const profile = useDeferredValue(query.data) ?? LOADING_HOST_PROFILE;
  useEffect(() => {
    if (profile.isMainHost || profile.loading) return;
    if (profile.name) document.title = profile.name;
    applyAppScripts(profile.settings?.appScripts ?? []);
  }, [profile]);
  return <HostProfileContext.Provider value={profile}>{children}</HostProfileContext.Provider>;
}

/**
 * Everything the pages share: theme (persisted in localStorage `theme`), TanStack Query, the host profile,
 * the top progress bar, the single toast area and the global confirm dialog.
 */
export function Providers({
  queryClient,
  hostProfile,
  env = "default",
  children,
}: {
  queryClient: QueryClient;
  /** The host profile to use; when omitted the app looks up its own host. */
  hostProfile?: HostProfile;
  /** "test" turns off Mantine's transitions and portals (component tests). */
  env?: "default" | "test";
  children: ReactNode;
}) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme={DEFAULT_THEME}
      env={env}
    >
      <QueryClientProvider client={queryClient}>
        <NavigationProgress size={3} data-testid="route-progress" aria-label="Loading the page" />
        <LazyNotifications />
        <LazyConfirmHost />
        {hostProfile ? (
          <HostProfileContext.Provider value={hostProfile}>{children}</HostProfileContext.Provider>
        ) : (
          <HostProfileLookup>{children}</HostProfileLookup>
        )}
      </QueryClientProvider>
    </MantineProvider>
  );
}
