import {
  evaluateMetric,
  getCampaignStats,
  getDashboardMetrics,
  getUsageStats,
  type MetricInput,
  type MetricResult,
  saveDashboardMetrics,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";
import { utcOffsetMinutes } from "../logs/api.ts";

export type { MetricInput, MetricResult };

export const DASHBOARD_KEY = "dashboard-metrics";

export function useDashboardMetrics(dateFilter: string | undefined) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: [DASHBOARD_KEY, accountId, viewingAs, dateFilter ?? ""],
    queryFn: ({ signal }) =>
      apiClient.call(getDashboardMetrics, {
        query: { ...(dateFilter ? { dateFilter } : {}), utcOffsetMinutes: utcOffsetMinutes() },
        signal,
      }),
  });
}

export function useSaveMetrics() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (metrics: MetricInput[]) => apiClient.call(saveDashboardMetrics, { body: { metrics } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [DASHBOARD_KEY] }),
  });
}

/** The editor's preview of one metric (null while the formula does not validate). */
export function useMetricPreview(metric: MetricInput | null, dateFilter: string | undefined) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["metric-preview", accountId, viewingAs, metric, dateFilter ?? ""],
    enabled: metric !== null,
    queryFn: ({ signal }) =>
      apiClient.call(evaluateMetric, {
        body: {
          metric: metric as MetricInput,
          ...(dateFilter ? { dateFilter } : {}),
          utcOffsetMinutes: utcOffsetMinutes(),
        },
        signal,
      }),
  });
}

export function useUsage(query: {
  billingPeriod?: "current" | "previous";
  startDate?: string;
  endDate?: string;
}) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["usage", accountId, viewingAs, query],
    queryFn: ({ signal }) => apiClient.call(getUsageStats, { query: { ...query, timeseries: true }, signal }),
  });
}

export function useCampaignStats(date: string) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["campaign-stats", accountId, viewingAs, date],
    enabled: /^\d{4}-\d{2}-\d{2}$/.test(date),
    queryFn: ({ signal }) => apiClient.call(getCampaignStats, { params: { date }, signal }),
  });
}
