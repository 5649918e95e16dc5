import { type CallSettingsFields, getCallSettings, saveCallSettings } from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** An agent's call settings (turn-taking, recording): the agent editor's Voices panel. */
function useKey(agentId: number) {
  const [accountId, viewingAs] = useAccountKey();
  return ["voice", "settings", agentId, accountId, viewingAs] as const;
}

export function useCallSettings(agentId: number) {
  return useQuery({
    queryKey: useKey(agentId),
    queryFn: ({ signal }) => apiClient.call(getCallSettings, { query: { agentId }, signal }),
  });
}

export function useSaveCallSettings(agentId: number) {
  const queryClient = useQueryClient();
  const key = useKey(agentId);
  return useMutation({
    mutationFn: (changes: Partial<CallSettingsFields>) =>
      apiClient.call(saveCallSettings, { body: { agentId, ...changes } }),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });
}
