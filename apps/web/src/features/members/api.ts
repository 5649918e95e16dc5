import { type AdminUser, deleteAdminUser, inviteAdminUser, listAdminUsers } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

export type { AdminUser };

const MEMBERS_KEY = "members";

/** GET /api/v2/listAdminUsers: the owners and admins of the account in view. */
export function useMembers() {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: [MEMBERS_KEY, accountId, viewingAs],
    queryFn: ({ signal }) => apiClient.call(listAdminUsers, { signal }),
  });
}

/** POST /api/v2/inviteAdminUser: adds the person and e-mails them a link that signs them in. */
export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; isOwner: boolean }) =>
      apiClient.call(inviteAdminUser, {
        body: { email: input.email, isOwner: input.isOwner, redirectUrl: `${window.location.origin}/app` },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MEMBERS_KEY] }),
  });
}

/** DELETE /api/v2/deleteAdminUser {targetUserId}. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (targetUserId: number) => apiClient.call(deleteAdminUser, { body: { targetUserId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MEMBERS_KEY] }),
  });
}
