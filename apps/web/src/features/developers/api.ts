import {
  createApiToken,
  createWebhook,
  deleteApiToken,
  deleteWebhook,
  listApiTokens,
  listWebhookDeliveries,
  listWebhooks,
  type RouteBody,
  resendWebhookDelivery,
  rotateWebhookSecret,
  setWebhookEnabled,
  testWebhook,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** The organisation's webhooks, their deliveries and its API tokens (Developers page). */
function useKey(name: string) {
  const [accountId, viewingAs] = useAccountKey();
  return ["developers", name, accountId, viewingAs] as const;
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["developers"] });
}

export function useWebhooks() {
  return useQuery({
    queryKey: useKey("webhooks"),
    queryFn: ({ signal }) => apiClient.call(listWebhooks, { signal }),
  });
}

export function useWebhookDeliveries() {
  return useQuery({
    queryKey: useKey("deliveries"),
    queryFn: ({ signal }) => apiClient.call(listWebhookDeliveries, { query: { limit: 50 }, signal }),
    // Retries land on their own schedule: look again now and then while one is pending.
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === "pending") ? 3000 : false,
  });
}

export function useCreateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof createWebhook>) => apiClient.call(createWebhook, { body }),
    onSuccess: invalidate,
  });
}

export function useDeleteWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => apiClient.call(deleteWebhook, { body: { id } }),
    onSuccess: invalidate,
  });
}

export function useTestWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (url: string) => apiClient.call(testWebhook, { body: { url } }),
    onSettled: invalidate,
  });
}

export function useRotateWebhookSecret() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (webhookId: number) => apiClient.call(rotateWebhookSecret, { params: { webhookId } }),
    onSuccess: invalidate,
  });
}

export function useSetWebhookEnabled() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { webhookId: number; enabled: boolean }) =>
      apiClient.call(setWebhookEnabled, {
        params: { webhookId: input.webhookId },
        body: { enabled: input.enabled },
      }),
    onSuccess: invalidate,
  });
}

export function useResendDelivery() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (deliveryId: number) => apiClient.call(resendWebhookDelivery, { params: { deliveryId } }),
    onSuccess: invalidate,
  });
}

export function useApiTokens() {
  return useQuery({
    queryKey: useKey("tokens"),
    queryFn: ({ signal }) => apiClient.call(listApiTokens, { signal }),
  });
}

export function useCreateApiToken() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof createApiToken>) => apiClient.call(createApiToken, { body }),
    onSuccess: invalidate,
  });
}

export function useRevokeApiToken() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => apiClient.call(deleteApiToken, { body: { id } }),
    onSuccess: invalidate,
  });
}
