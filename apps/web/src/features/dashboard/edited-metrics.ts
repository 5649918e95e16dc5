import { useEffect } from "react";
import { useLocation } from "react-router";
import { useAccountKey } from "../../lib/account-state.ts";
import { type MetricInput, useDashboardMetrics } from "./api.ts";
import { discardUnlessEditing, setDraft, useDashboardDraft } from "./dashboard-draft.ts";

/** The dashboard's date range, from the page's query (`dateFilter`). */
export const useDashboardDateFilter = () =>
  new URLSearchParams(useLocation().search).get("dateFilter") ?? undefined;

/** The metrics as saved (results carry each metric). */
function useSavedMetrics() {
  const metrics = useDashboardMetrics(useDashboardDateFilter());
  return { query: metrics, list: metrics.data?.metrics.map((result) => result.metric as MetricInput) ?? [] };
}

/**
 * The dashboard as being edited: the draft when there is one, else the saved metrics. The draft is discarded
 * when the editing overlays close (not when one switches to the other).
 */
export function useEditedMetrics() {
  const saved = useSavedMetrics();
  const [accountId, viewingAs] = useAccountKey();
  const account = `${accountId}:${viewingAs}`;
  const draft = useDashboardDraft(account);
  useEffect(
    () => () => {
      setTimeout(() => discardUnlessEditing(window.location.search), 0);
    },
    [],
  );
  return {
    ...saved,
    draft,
    current: draft ?? saved.list,
    change: (metrics: MetricInput[]) => setDraft(account, metrics),
  };
}
