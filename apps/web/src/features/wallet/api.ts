import {
  checkoutCredit,
  claimRewards,
  createPaymentLink,
  EXCHANGE_RATE_TTL_SECONDS,
  getCheckoutSession,
  getExchangeRates,
  getPendingInvoice,
  getRecentTransactions,
  getReferralRewards,
  getWithdrawal,
  listPaymentLinks,
  listWithdrawals,
  payoutPaypal,
  payoutVenmo,
  provePendingInvoicePaid,
  requestInvoice,
  requestWithdrawal,
  resetPendingInvoice,
  SAT_TO_USD_FALLBACK,
  stripeCheckConnectedAccount,
  stripeConnectAccount,
  stripeTransferFunds,
  updatePaymentLink,
} from "@switchboard/api";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

/** The wallet of the account in view: balance, transactions, top-ups (card and lightning). */
function useKey(...parts: (string | number)[]) {
  const [accountId, viewingAs] = useAccountKey();
  return ["wallet", accountId, viewingAs, ...parts] as const;
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["wallet"] });
}

export function useWallet() {
  return useQuery({
    queryKey: useKey("transactions"),
    queryFn: ({ signal }) => apiClient.call(getRecentTransactions, { query: { limit: 50 }, signal }),
  });
}

/** Local storage key of the kept exchange rate (spec §9). */
const RATE_KEY = "satsExchangeRate";

/**
 * USD per sat and where it came from: a market provider (`coinbase`), the offline `sandbox`'s made-up rate,
 * or `fallback` (0.00043, when no provider answered). Only a market rate is a real price.
 */
export type ExchangeRate = { satToUsd: number; source: string };

function storedRate(): ExchangeRate | null {
  try {
    const kept = JSON.parse(localStorage.getItem(RATE_KEY) ?? "null") as {
      satToUsd: number;
      source?: string;
      at: number;
    } | null;
    if (kept && kept.satToUsd > 0 && Date.now() - kept.at < EXCHANGE_RATE_TTL_SECONDS * 1000)
      return { satToUsd: kept.satToUsd, source: kept.source ?? "fallback" };
  } catch {
    // A damaged entry is asked again.
  }
  return null;
}

/** The rate, kept 900 s in local storage, else asked; 0.00043 (`fallback`) when it cannot be had (spec §9). */
export function useExchangeRate(): ExchangeRate {
  const query = useQuery({
    queryKey: useKey("exchangeRate"),
    queryFn: async ({ signal }): Promise<ExchangeRate> => {
      const kept = storedRate();
      if (kept) return kept;
      const answer = await apiClient.call(getExchangeRates, { signal });
      localStorage.setItem(
        RATE_KEY,
        JSON.stringify({ satToUsd: answer.satToUsd, source: answer.source, at: Date.now() }),
      );
      return { satToUsd: answer.satToUsd, source: answer.source };
    },
    staleTime: EXCHANGE_RATE_TTL_SECONDS * 1000,
  });
  return query.data ?? { satToUsd: SAT_TO_USD_FALLBACK, source: "fallback" };
}

/** USD per sat (see useExchangeRate). */
export function useSatToUsd(): number {
  return useExchangeRate().satToUsd;
}

/** Whether a rate is a market price; the sandbox's and the fallback are not. */
export function isMarketRate(rate: ExchangeRate): boolean {
  return rate.source !== "sandbox" && rate.source !== "fallback";
}

export function useCheckoutCredit() {
  return useMutation({
    mutationFn: (body: { amount: number; successUrl: string; cancelUrl: string }) =>
      apiClient.call(checkoutCredit, { body: { ...body, currency: "usd" } }),
  });
}

export function useCheckoutSession(sessionId: string | null) {
  return useQuery({
    queryKey: useKey("checkout", sessionId ?? ""),
    enabled: Boolean(sessionId),
    queryFn: ({ signal }) =>
      apiClient.call(getCheckoutSession, { params: { sessionId: sessionId ?? "" }, signal }),
    // A card payment may be confirmed a moment after the return (the provider's webhook): look again.
    refetchInterval: (query) => (query.state.data?.session.status === "open" ? 2000 : false),
  });
}

export function usePendingInvoice() {
  return useQuery({
    queryKey: useKey("pendingInvoice"),
    queryFn: ({ signal }) => apiClient.call(getPendingInvoice, { signal }),
  });
}

export function useRequestInvoice() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { amount: number; unit: "USD" | "SAT" }) => apiClient.call(requestInvoice, { body }),
    onSuccess: invalidate,
  });
}

export function useResetPendingInvoice() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => apiClient.call(resetPendingInvoice, { body: {} }),
    onSuccess: invalidate,
  });
}

export function useProveInvoicePaid() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { preimage: string; invoice: string }) =>
      apiClient.call(provePendingInvoicePaid, { body }),
    onSuccess: invalidate,
  });
}

/** The full transaction list, a page at a time (older pages by the last id seen). */
export const TRANSACTIONS_PAGE_SIZE = 25;

export function useTransactionPages() {
  return useInfiniteQuery({
    queryKey: useKey("transactionPages"),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiClient.call(getRecentTransactions, {
        query: { limit: TRANSACTIONS_PAGE_SIZE, ...(pageParam ? { before: pageParam } : {}) },
        signal,
      }),
    getNextPageParam: (last) =>
      last.transactions.length < TRANSACTIONS_PAGE_SIZE ? undefined : last.transactions.at(-1)?.id,
  });
}

export function useWithdrawals() {
  return useQuery({
    queryKey: useKey("withdrawals"),
    queryFn: ({ signal }) => apiClient.call(listWithdrawals, { query: { limit: 20 }, signal }),
  });
}

export type WithdrawInput =
  | { kind: "ln"; address: string }
  | { kind: "paypal" | "venmo"; address: string; amountUsd: number }
  | { kind: "stripe"; amountUsd: number };

export function useWithdraw() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: WithdrawInput) =>
      input.kind === "stripe"
        ? apiClient.call(stripeTransferFunds, { body: { amountUsd: input.amountUsd } })
        : input.kind === "ln"
          ? apiClient.call(requestWithdrawal, { body: { address: input.address, type: "ln" } })
          : apiClient.call(input.kind === "paypal" ? payoutPaypal : payoutVenmo, {
              body: { address: input.address, amountUsd: input.amountUsd },
            }),
    onSuccess: invalidate,
  });
}

/** The wallet's lists and balance, after a withdrawal settled or was released (not the withdrawal itself). */
export function useInvalidateBalance() {
  const queryClient = useQueryClient();
  // Stable, so an effect that calls it once per settled withdrawal does not run again on every render.
  return useCallback(
    () =>
      queryClient.invalidateQueries({
        queryKey: ["wallet"],
        predicate: (query) => query.queryKey[3] !== "withdrawal",
      }),
    [queryClient],
  );
}

/** One withdrawal, looked at again every 1.5 s while its funds are on hold. */
export function useWithdrawal(id: number | null) {
  return useQuery({
    queryKey: useKey("withdrawal", id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) => apiClient.call(getWithdrawal, { params: { withdrawalId: id ?? 0 }, signal }),
    refetchInterval: (query) => (query.state.data?.withdrawal.status === "pending" ? 1500 : false),
  });
}

/** The referral link of the account in view, who signed up through it and the rewards their payments earned. */
export function useReferralRewards() {
  return useQuery({
    queryKey: useKey("referralRewards"),
    queryFn: ({ signal }) => apiClient.call(getReferralRewards, { signal }),
  });
}

/** Claims the claimable rewards into the wallet (the balance and transactions reload). */
export function useClaimRewards() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => apiClient.call(claimRewards, { body: { claim: "true" } }),
    onSuccess: invalidate,
  });
}

/** The payment links of the account in view (anyone pays them; its wallet is credited). */
export function usePaymentLinks() {
  return useQuery({
    queryKey: useKey("paymentLinks"),
    queryFn: ({ signal }) => apiClient.call(listPaymentLinks, { signal }),
  });
}

export function useCreatePaymentLink() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { slug: string; title: string; amount: number | null }) =>
      apiClient.call(createPaymentLink, { body }),
    onSuccess: invalidate,
  });
}

export function useUpdatePaymentLink() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { id: number; status: "active" | "disabled" }) =>
      apiClient.call(updatePaymentLink, { params: { linkId: input.id }, body: { status: input.status } }),
    onSuccess: invalidate,
  });
}

/** The wallet owner's Stripe connected account: connected? payouts enabled? */
export function useConnectedAccount() {
  return useQuery({
    queryKey: useKey("stripeConnected"),
    queryFn: ({ signal }) => apiClient.call(stripeCheckConnectedAccount, { signal }),
  });
}

/** Starts (or resumes) the Stripe Connect onboarding: answers the page to send the browser to. */
export function useConnectStripe() {
  return useMutation({
    mutationFn: (body: { successUrl: string; failureUrl: string }) =>
      apiClient.call(stripeConnectAccount, { body }),
  });
}
