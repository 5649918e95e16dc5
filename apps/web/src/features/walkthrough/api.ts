import { listAgentAccounts, saveAccountSetting } from "@switchboard/api";
import type { WalkthroughSettings } from "@switchboard/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useAccountKey, useAccountState } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** POST /api/v1/accountSetting { walkthrough } on the account in view, then the account reloads. */
export function useSaveWalkthrough() {
  const { refresh } = useAccountState();
  return useMutation({
    mutationFn: (walkthrough: WalkthroughSettings) =>
      apiClient.call(saveAccountSetting, { body: { settings: { walkthrough } } }),
    onSuccess: () => refresh(),
  });
}

/** The organisation's newest agent (GET /api/v2/listAccounts, newest first): what the test and number steps act on. */
export function useNewestAgentId(enabled: boolean) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["account-lists", "agents", accountId, viewingAs, "newest"],
    enabled,
    queryFn: async ({ signal }) => {
      const list = await apiClient.call(listAgentAccounts, { query: { page: 0, pageSize: 1 }, signal });
      return list.accounts[0]?.id ?? null;
    },
  });
}
