import { saveAccountSetting } from "@switchboard/api";
import type { WalkthroughSettings } from "@switchboard/core";
import { useMutation } from "@tanstack/react-query";
import { useAccountState } from "../../app/account-state.ts";
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
