import {
  connectGoogle,
  disableCalendly,
  disconnectGoogle,
  enableCalendly,
  getCalendly,
  getGoogleCalendars,
  getIntegration,
  jobNimbusSettings,
  jobNimbusTeam,
  type RouteBody,
  setGoogleMainCalendar,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** Calendars (Google, Calendly) and integrations (JobNimbus) of the current account. */
function useKey(name: string) {
  const [accountId, viewingAs] = useAccountKey();
  return ["integrations", name, accountId, viewingAs] as const;
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["integrations"] });
}

export function useGoogleCalendars() {
  return useQuery({
    queryKey: useKey("google"),
    queryFn: ({ signal }) => apiClient.call(getGoogleCalendars, { signal }),
  });
}

export function useConnectGoogle() {
  return useMutation({
    mutationFn: (returnTo: string) => apiClient.call(connectGoogle, { body: { returnTo } }),
    // Google's consent page (or the sandbox's) takes over the tab and comes back to returnTo.
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function useSetMainCalendar() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (calendar: string) => apiClient.call(setGoogleMainCalendar, { body: { calendar } }),
    onSuccess: invalidate,
  });
}

export function useDisconnectGoogle() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: () => apiClient.call(disconnectGoogle, {}), onSuccess: invalidate });
}

export function useCalendly() {
  return useQuery({
    queryKey: useKey("calendly"),
    queryFn: ({ signal }) => apiClient.call(getCalendly, { signal }),
  });
}

export function useEnableCalendly() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof enableCalendly>) => apiClient.call(enableCalendly, { body }),
    onSuccess: invalidate,
  });
}

export function useDisableCalendly() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: () => apiClient.call(disableCalendly, {}), onSuccess: invalidate });
}

export function useIntegration(slug: string) {
  return useQuery({
    queryKey: useKey(`app-${slug}`),
    queryFn: ({ signal }) => apiClient.call(getIntegration, { params: { slug }, signal }),
  });
}

export function useJobNimbusSettings() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (authorization: string) => apiClient.call(jobNimbusSettings, { body: { authorization } }),
    onSuccess: invalidate,
  });
}

export function useJobNimbusTeam() {
  return useMutation({
    mutationFn: (targetDate: string) => apiClient.call(jobNimbusTeam, { body: { targetDate } }),
  });
}

/** Whether an integration a template asks for is connected for real (onboarding's SETUP_INTEGRATIONS). */
export function useIntegrationConnected(name: string): boolean | undefined {
  const google = useGoogleCalendars();
  const calendly = useCalendly();
  const jobNimbus = useIntegration("jobnimbus");
  if (name === "calendar") {
    if (!google.data || !calendly.data) return undefined;
    return google.data.connected || calendly.data.enabled;
  }
  if (name === "jobnimbus") {
    if (!jobNimbus.data) return undefined;
    return typeof jobNimbus.data.appData.apiKey === "string";
  }
  return undefined;
}
