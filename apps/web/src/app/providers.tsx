import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { NavigationProgress } from "@mantine/nprogress";
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT } from "@switchboard/core";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { ConfirmHost } from "../components/confirm/confirm-host.tsx";
import { applyAppScripts, lookupHost } from "../lib/host-lookup.ts";
import { type HostProfile, HostProfileContext, MAIN_HOST_PROFILE } from "../lib/host-profile.ts";
import { DEFAULT_THEME, themeColorSchemeManager } from "../lib/theme-storage.ts";
import { theme } from "./theme.ts";

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

const colorSchemeManager = themeColorSchemeManager();

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
  const profile = query.data ?? LOADING_HOST_PROFILE;
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
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme={DEFAULT_THEME}
      env={env}
    >
      <QueryClientProvider client={queryClient}>
        <NavigationProgress size={3} data-testid="route-progress" />
        <Notifications position="bottom-center" limit={TOAST_LIMIT} autoClose={TOAST_AUTO_CLOSE_MS} />
        <ConfirmHost />
        {hostProfile ? (
          <HostProfileContext.Provider value={hostProfile}>{children}</HostProfileContext.Provider>
        ) : (
          <HostProfileLookup>{children}</HostProfileLookup>
        )}
      </QueryClientProvider>
    </MantineProvider>
  );
}
