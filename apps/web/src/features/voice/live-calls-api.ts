import { hangUpLiveCall, type LiveCall, listLiveCalls } from "@switchboard/api";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

export type { LiveCall };
export type LiveCaption = { id: number; role: "caller" | "agent" | "destination"; text: string; at: number };

/** Every live-call query starts with this key; the realtime `call` events refresh or extend them. */
export const LIVE_CALLS_KEY = "liveCalls";

/** The calls in progress in the organisation (or agent) in view. */
export function useLiveCalls(options: { enabled?: boolean } = {}) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: [LIVE_CALLS_KEY, "list", accountId, viewingAs],
    enabled: options.enabled ?? true,
    queryFn: async ({ signal }) => (await apiClient.call(listLiveCalls, { signal })).calls,
  });
}

/** The final captions of a call heard on the realtime WebSocket since this page loaded. */
export function useLiveCaptions(uuid: string): LiveCaption[] {
  const { data } = useQuery<LiveCaption[]>({
    queryKey: [LIVE_CALLS_KEY, "captions", uuid],
    queryFn: () => [],
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60_000,
  });
  return data ?? [];
}

/** Applies a realtime `call` event: the list reloads on a start or an end; a caption joins its call's. */
export function applyCallEvent(
  queryClient: QueryClient,
  event:
    | { what: "started" | "ended"; uuid: string }
    | { what: "caption"; uuid: string; role: "caller" | "agent" | "destination"; text: string },
) {
  if (event.what === "caption") {
    queryClient.setQueryData<LiveCaption[]>([LIVE_CALLS_KEY, "captions", event.uuid], (old = []) => [
      ...old,
      { id: old.length, role: event.role, text: event.text, at: Date.now() },
    ]);
    return;
  }
  if (event.what === "ended")
    queryClient.setQueriesData<LiveCall[]>({ queryKey: [LIVE_CALLS_KEY, "list"] }, (old) =>
      old?.filter((call) => call.uuid !== event.uuid),
    );
  void queryClient.invalidateQueries({ queryKey: [LIVE_CALLS_KEY, "list"] });
}

export function useHangUpLiveCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => apiClient.call(hangUpLiveCall, { params: { uuid } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [LIVE_CALLS_KEY, "list"] }),
  });
}
