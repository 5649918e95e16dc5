import { getProfileLinks, linkStats, type RouteBody, saveProfileLinks } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** The public page of the account in view: its links, their settings and their click statistics. */
function useKey(name: string) {
  const [accountId, viewingAs] = useAccountKey();
  return ["public-page", name, accountId, viewingAs] as const;
}

export function useProfileLinks() {
  return useQuery({
    queryKey: useKey("links"),
    queryFn: ({ signal }) => apiClient.call(getProfileLinks, { signal }),
  });
}

export function useSaveProfileLinks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RouteBody<typeof saveProfileLinks>) => apiClient.call(saveProfileLinks, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["public-page"] }),
  });
}

export function useLinkStats(days: number) {
  return useQuery({
    queryKey: [...useKey("stats"), days],
    queryFn: ({ signal }) => apiClient.call(linkStats, { body: { days }, signal }),
  });
}

/** The address of a public page on this server. */
export function publicPageUrl(username: string, origin = window.location.origin): string {
  return `${origin}/${encodeURIComponent(username)}`;
}
