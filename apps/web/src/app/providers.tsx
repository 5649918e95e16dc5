import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { NavigationProgress } from "@mantine/nprogress";
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT } from "@switchboard/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ConfirmHost } from "../components/confirm/confirm-host.tsx";
import { type HostProfile, HostProfileContext, MAIN_HOST_PROFILE } from "../lib/host-profile.ts";
import { DEFAULT_THEME, themeColorSchemeManager } from "../lib/theme-storage.ts";
import { theme } from "./theme.ts";

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

const colorSchemeManager = themeColorSchemeManager();

/**
 * Everything the pages share: theme (persisted in localStorage `theme`), TanStack Query, the host profile,
 * the top progress bar, the single toast area and the global confirm dialog.
 */
export function Providers({
  queryClient,
  hostProfile = MAIN_HOST_PROFILE,
  env = "default",
  children,
}: {
  queryClient: QueryClient;
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
        <HostProfileContext.Provider value={hostProfile}>
          <NavigationProgress size={3} data-testid="route-progress" />
          <Notifications position="bottom-center" limit={TOAST_LIMIT} autoClose={TOAST_AUTO_CLOSE_MS} />
          <ConfirmHost />
          {children}
        </HostProfileContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
