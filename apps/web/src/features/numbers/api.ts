import {
  assignByoNumber,
  assignPhoneNumber,
  getOutboundCall,
  getSpeechStatus,
  listOutboundCalls,
  listPhoneNumbers,
  placeOutboundCall,
  type RouteBody,
  releasePhoneNumber,
  searchNumbersByLocality,
  searchNumbersByPhrase,
  searchNumbersByPrefix,
  setSandboxCallee,
  validateVerifiedNumber,
  verifyCellForwarding,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { ACCOUNT_LISTS_KEY } from "../accounts/api.ts";

/** The organisation's phone numbers, the marketplace and outbound calls (Numbers page and its overlays). */
function useKey(name: string) {
  const [accountId, viewingAs] = useAccountKey();
  return ["numbers", name, accountId, viewingAs] as const;
}

/** A number change also changes the agents' `switchboardPhoneNumber` (agent lists, the account). */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ["numbers"] });
    void queryClient.invalidateQueries({ queryKey: [ACCOUNT_LISTS_KEY] });
    void queryClient.invalidateQueries({ queryKey: ["inbox"] });
  };
}

export function usePhoneNumbers() {
  return useQuery({
    queryKey: useKey("list"),
    queryFn: ({ signal }) => apiClient.call(listPhoneNumbers, { signal }),
  });
}

export type NumberSearchInput =
  | { by: "prefix"; body: RouteBody<typeof searchNumbersByPrefix> }
  | { by: "locality"; body: RouteBody<typeof searchNumbersByLocality> }
  | { by: "phrase"; body: RouteBody<typeof searchNumbersByPhrase> };

export function useSearchNumbers() {
  return useMutation({
    mutationFn: (input: NumberSearchInput) =>
      input.by === "prefix"
        ? apiClient.call(searchNumbersByPrefix, { body: input.body })
        : input.by === "locality"
          ? apiClient.call(searchNumbersByLocality, { body: input.body })
          : apiClient.call(searchNumbersByPhrase, { body: input.body }),
  });
}

export function useAssignNumber() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof assignPhoneNumber>) => apiClient.call(assignPhoneNumber, { body }),
    onSuccess: invalidate,
  });
}

export function useAssignByoNumber() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof assignByoNumber>) => apiClient.call(assignByoNumber, { body }),
    onSuccess: invalidate,
  });
}

export function useReleaseNumber() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (number: string) => apiClient.call(releasePhoneNumber, { body: { number } }),
    onSuccess: invalidate,
  });
}

export function useVerifyForwarding() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof verifyCellForwarding>) =>
      apiClient.call(verifyCellForwarding, { body }),
    onSuccess: invalidate,
  });
}

export function useValidateVerifiedNumber() {
  return useMutation({
    mutationFn: (body: RouteBody<typeof validateVerifiedNumber>) =>
      apiClient.call(validateVerifiedNumber, { body }),
  });
}

export function usePlaceOutboundCall() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof placeOutboundCall>) => apiClient.call(placeOutboundCall, { body }),
    onSuccess: invalidate,
  });
}

export function useSetSandboxCallee() {
  return useMutation({
    mutationFn: (body: RouteBody<typeof setSandboxCallee>) => apiClient.call(setSandboxCallee, { body }),
  });
}

/** One outbound call, followed until it has ended. */
export function useOutboundCall(callId: string | null) {
  return useQuery({
    queryKey: useKey(`call-${callId}`),
    enabled: callId !== null,
    queryFn: ({ signal }) => apiClient.call(getOutboundCall, { params: { callId: callId ?? "" }, signal }),
    refetchInterval: (query) => (query.state.data?.call.status === "completed" ? false : 1000),
  });
}

export function useOutboundCalls() {
  return useQuery({
    queryKey: useKey("calls"),
    queryFn: ({ signal }) => apiClient.call(listOutboundCalls, { signal }),
  });
}

/** Whether the server's speech recognition hears phone calls (GET /api/v1/voice/speech). */
export function useSpeechStatus() {
  return useQuery({
    queryKey: ["voice-speech"],
    queryFn: ({ signal }) => apiClient.call(getSpeechStatus, { signal }),
    staleTime: 5 * 60_000,
  });
}
