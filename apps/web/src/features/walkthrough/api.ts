import { listAgentAccounts, saveAccountSetting } from "@switchboard/api";
import { finishWalkthroughStep, type WalkthroughSettings, type WalkthroughStep } from "@switchboard/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useAccountKey, useAccountState, usePermission } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { useOrganizationAgents } from "../agents/api.ts";
import { deriveWalkthrough, type WalkthroughAccountView, walkthroughToSave } from "./walkthrough-model.ts";

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
  const account = useWalkthroughAccount();
  const canEdit = usePermission("canEditOrg");
  const { mutate } = useSaveWalkthrough();
  return (step) => {
    if (!canEdit) return;
    const state = finishWalkthroughStep(deriveWalkthrough(account), step);
    const pending = walkthroughToSave(account.settings.walkthrough, state);
    if (pending) mutate(pending);
  };
}

/**
 * The account in view as the walkthrough reads it. An organisation's numbers are its agents': one of them
 * with a number counts as the organisation's (the organisation account itself never has one).
 */
export function useWalkthroughAccount(): WalkthroughAccountView {
  const { account } = useAccountState().view;
  const agents = useOrganizationAgents(account.accountType === "organization");
  const agentNumber = agents.data?.accounts.find(
    (agent) => agent.switchboardPhoneNumber,
  )?.switchboardPhoneNumber;
  return { ...account, switchboardPhoneNumber: account.switchboardPhoneNumber ?? agentNumber ?? null };
}
