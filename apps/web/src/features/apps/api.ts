import { type App, getApp, installApp, listApps, uninstallApp } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiClient } from "../../lib/api-client.ts";

export type { App };

const APPS_KEY = "apps";

/** The app catalogue, with what the organisation in view installed. */
export function useApps() {
  return useQuery({
    queryKey: [APPS_KEY],
    queryFn: async ({ signal }) => (await apiClient.call(listApps, { signal })).apps,
  });
}

/** One app of the catalogue and its installation. */
export function useApp(appId: string, appVersion: string) {
  return useQuery({
    queryKey: [APPS_KEY, appId, appVersion],
    queryFn: async ({ signal }) =>
      (await apiClient.call(getApp, { params: { appId, appVersion }, signal })).app,
  });
}

/** After an install or removal: the catalogue and the functions the editor offers change. */
function useAfterChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [APPS_KEY] }),
      queryClient.invalidateQueries({ queryKey: ["agent-functions"] }),
    ]);
}

export function useInstallApp() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (input: { appId: string; appVersion: string; data: Record<string, string> }) =>
      apiClient.call(installApp, {
        params: { appId: input.appId, appVersion: input.appVersion },
        body: { data: input.data },
      }),
    onSuccess: after,
  });
}

export function useUninstallApp() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (input: { appId: string; appVersion: string }) =>
      apiClient.call(uninstallApp, { params: input }),
    onSuccess: after,
  });
}

/** `appId@version` (the `install` overlay's value and the apps' keys) into its parts. */
export function parseAppKey(value: string | null): { appId: string; appVersion: string } | null {
  const match = /^([\w-]+)@([\w.-]+)$/.exec(value ?? "");
  return match?.[1] && match[2] ? { appId: match[1], appVersion: match[2] } : null;
}
