import {
  addSipIpWhitelist,
  buildQuery,
  deleteSipIpWhitelist,
  deleteSipOutboundRoute,
  deleteSipRegistration,
  getSipCaptures,
  getSipRegistration,
  listSipIpWhitelist,
  listSipOutboundRoutes,
  type RouteBody,
  saveSipOutboundRoute,
  saveSipRegistration,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient, authHeaders, withViewingAs } from "../../lib/api-client.ts";
import { getTargetAccountId } from "../../lib/session.ts";

/** SIP developer settings (Developers page): allow-list, outbound routes, registration, captures. */
export const SIP_KEY = "sip";

function useKey(name: string) {
  const [accountId, viewingAs] = useAccountKey();
  return [SIP_KEY, name, accountId, viewingAs] as const;
}

function useInvalidate(name: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [SIP_KEY, name] });
}

export function useSipAllowlist() {
  return useQuery({
    queryKey: useKey("allowlist"),
    queryFn: ({ signal }) => apiClient.call(listSipIpWhitelist, { signal }),
  });
}

export function useAddSipAllow() {
  const invalidate = useInvalidate("allowlist");
  return useMutation({
    mutationFn: (body: RouteBody<typeof addSipIpWhitelist>) => apiClient.call(addSipIpWhitelist, { body }),
    onSuccess: invalidate,
  });
}

export function useDeleteSipAllow() {
  const invalidate = useInvalidate("allowlist");
  return useMutation({
    mutationFn: (id: number) => apiClient.call(deleteSipIpWhitelist, { body: { id } }),
    onSuccess: invalidate,
  });
}

export function useSipRoutes() {
  return useQuery({
    queryKey: useKey("routes"),
    queryFn: ({ signal }) => apiClient.call(listSipOutboundRoutes, { signal }),
  });
}

export function useSaveSipRoute() {
  const invalidate = useInvalidate("routes");
  return useMutation({
    mutationFn: (route: RouteBody<typeof saveSipOutboundRoute>["route"]) =>
      apiClient.call(saveSipOutboundRoute, { body: { route } }),
    onSuccess: invalidate,
  });
}

export function useDeleteSipRoute() {
  const invalidate = useInvalidate("routes");
  return useMutation({
    mutationFn: (id: number) => apiClient.call(deleteSipOutboundRoute, { body: { id } }),
    onSuccess: invalidate,
  });
}

/** The registration and its state; kept live by the realtime `sip` event (features/inbox/api.ts). */
export function useSipRegistration() {
  return useQuery({
    queryKey: useKey("registration"),
    queryFn: ({ signal }) => apiClient.call(getSipRegistration, { signal }),
  });
}

export function useSaveSipRegistration() {
  const invalidate = useInvalidate("registration");
  return useMutation({
    mutationFn: (registration: RouteBody<typeof saveSipRegistration>["registration"]) =>
      apiClient.call(saveSipRegistration, { body: { registration } }),
    onSuccess: invalidate,
  });
}

export function useDeleteSipRegistration() {
  const invalidate = useInvalidate("registration");
  return useMutation({
    mutationFn: () => apiClient.call(deleteSipRegistration, {}),
    onSuccess: invalidate,
  });
}

export function useSipCaptureCalls(enabled = true) {
  return useQuery({
    queryKey: useKey("captures"),
    queryFn: ({ signal }) => apiClient.call(getSipCaptures, { query: {}, signal }),
    enabled,
  });
}

export function useSipCapture(sipCallId: string | null) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: [SIP_KEY, "capture", accountId, viewingAs, sipCallId],
    queryFn: ({ signal }) =>
      apiClient.call(getSipCaptures, { query: { sipCallId: sipCallId ?? undefined }, signal }),
    enabled: sipCallId !== null,
  });
}

/** The call catalogue's capture fetch: ok false with status and its text on a refusal, status 0 offline. */
export type CaptureDownload =
  | { ok: true; status: number; data: Blob; contentType: string }
  | { ok: false; status: number; statusText: string };

export async function fetchSipCapture(sipCallId: string, format: "text" | "pcap"): Promise<CaptureDownload> {
  const query = buildQuery({ targetAccountId: getTargetAccountId(), sipCallId, format });
  try {
    const response = await withViewingAs((input, init) => fetch(input, init))(
      `${getSipCaptures.path}${query}`,
      { headers: authHeaders() },
    );
    if (!response.ok) return { ok: false, status: response.status, statusText: response.statusText };
    return {
      ok: true,
      status: response.status,
      data: await response.blob(),
      contentType: response.headers.get("content-type") ?? "",
    };
  } catch {
    return { ok: false, status: 0, statusText: "The server could not be reached." };
  }
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
