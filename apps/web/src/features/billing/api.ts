import {
  cancelSubscription,
  getAllAvailablePlans,
  getBillingCustomerPortalLink,
  getCurrentPlan,
  getOfferedPlan,
  getProductCatalogPlan,
  getSubscriptionCheckout,
  getUsageStats,
  setOfferedPlan,
  subscribe,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAppPath } from "../../lib/account-context.ts";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** Plans and the subscription of the account in view. */
function useKey(...parts: (string | number)[]) {
  const [accountId, viewingAs] = useAccountKey();
  return ["billing", accountId, viewingAs, ...parts] as const;
}

export function useCurrentPlan() {
  return useQuery({
    queryKey: useKey("currentPlan"),
    queryFn: ({ signal }) => apiClient.call(getCurrentPlan, { signal }),
  });
}

/** The current billing period's usage, priced by the plan, and what the usage debits charged so far. */
export function usePeriodUsage() {
  return useQuery({
    queryKey: useKey("usage"),
    queryFn: ({ signal }) =>
      apiClient.call(getUsageStats, {
        query: { billingPeriod: "current", giveCosts: "true", combineCosts: "true" },
        signal,
      }),
  });
}

export function useAvailablePlans() {
  return useQuery({
    queryKey: useKey("allAvailablePlans"),
    queryFn: ({ signal }) => apiClient.call(getAllAvailablePlans, { signal }),
  });
}

export function useOfferedPlan() {
  return useQuery({
    queryKey: useKey("offeredPlan"),
    queryFn: ({ signal }) => apiClient.call(getOfferedPlan, { signal }),
  });
}

export function usePlan(id: number | null) {
  return useQuery({
    queryKey: useKey("plan", id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => apiClient.call(getProductCatalogPlan, { params: { id: id ?? 0 }, signal }),
  });
}

export function useSubscriptionCheckout(checkoutId: string | null) {
  return useQuery({
    queryKey: useKey("checkout", checkoutId ?? ""),
    enabled: Boolean(checkoutId),
    queryFn: ({ signal }) =>
      apiClient.call(getSubscriptionCheckout, { params: { checkoutId: checkoutId ?? "" }, signal }),
    // Stripe's webhook may confirm the payment a moment after the return: look again while open.
    refetchInterval: (query) => (query.state.data?.checkout.status === "open" ? 2000 : false),
  });
}

/** Everything the account shows (its premium flag included) is asked again after a change of plan. */
function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

/** Starts a checkout and sends the browser to its page (the sandbox's, or Stripe's). */
export function useSubscribe() {
  const { accountPrefix } = useAppPath();
  return useMutation({
    mutationFn: async (body: { productPlanId: number; term: "month" | "year" }) => {
      const origin = window.location.origin;
      const answer = await apiClient.call(subscribe, {
        body: {
          ...body,
          successUrl: `${origin}${accountPrefix}/paymentSuccess?planCheckout={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${origin}${accountPrefix}/paymentCancel?planCheckout=cancelled`,
        },
      });
      window.location.assign(answer.url);
      return answer;
    },
  });
}

export function useCancelSubscription() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (body: { reason: string; details: string }) => apiClient.call(cancelSubscription, { body }),
    onSuccess: invalidate,
  });
}

export function usePortalLink() {
  const { accountPrefix } = useAppPath();
  return useMutation({
    mutationFn: async () => {
      const answer = await apiClient.call(getBillingCustomerPortalLink, {
        body: { redirectUrl: `${window.location.origin}${accountPrefix}/billing` },
      });
      window.location.assign(answer.url);
      return answer;
    },
  });
}

export function useSetOfferedPlan() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (body: { productPlanId: number | null; monthPrice?: number; yearPrice?: number }) =>
      apiClient.call(setOfferedPlan, { body }),
    onSuccess: invalidate,
  });
}

export { useInvalidateAll };
