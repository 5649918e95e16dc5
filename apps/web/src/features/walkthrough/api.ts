import { listAgentAccounts, saveAccountSetting } from "@switchboard/api";
import { finishWalkthroughStep, type WalkthroughSettings, type WalkthroughStep } from "@switchboard/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useAccountKey, useAccountState, usePermission } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { deriveWalkthrough, walkthroughToSave } from "./walkthrough-model.ts";

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

/**
 * Ticks a step of the account in view's walkthrough where the person did it (a test message sent ticks
 * "Test your agent"), when it is not ticked yet and the person may change the account's settings.
 */
export function useFinishWalkthroughStep(): (step: WalkthroughStep) => void {
  const { view } = useAccountState();
  const canEdit = usePermission("canEditOrg");
  const { mutate } = useSaveWalkthrough();
  return (step) => {
    if (!canEdit) return;
    const state = finishWalkthroughStep(deriveWalkthrough(view.account), step);
    const pending = walkthroughToSave(view.account.settings.walkthrough, state);
    if (pending) mutate(pending);
  };
}
