import type { MetricInput } from "@switchboard/api";
import { useSyncExternalStore } from "react";

/**
 * The dashboard being edited: a draft of its metrics shared by the editDashboard overlay and the editMetric
 * overlay it switches to. Nothing reaches the server until "Save dashboard"; Cancel (or leaving both
 * overlays) discards it. Keyed by the account in view, so a draft never follows the user to another one.
 */
export type DashboardDraft = { account: string; metrics: MetricInput[] };

let draft: DashboardDraft | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The draft's metrics for this account, or null when the dashboard is not being changed. */
export function draftFor(account: string): MetricInput[] | null {
  return draft?.account === account ? draft.metrics : null;
}

export function setDraft(account: string, metrics: MetricInput[]): void {
  draft = { account, metrics };
  emit();
}

export function discardDraft(): void {
  if (draft === null) return;
  draft = null;
  emit();
}

export function useDashboardDraft(account: string): MetricInput[] | null {
  return useSyncExternalStore(subscribe, () => draftFor(account));
}

/** The query keys of the two overlays that edit the draft. */
const EDITING = ["editDashboard", "editMetric"];

/** Discards the draft when the address no longer shows either editing overlay (closed, not switched). */
export function discardUnlessEditing(search: string): void {
  const params = new URLSearchParams(search);
  if (!EDITING.some((key) => params.has(key))) discardDraft();
}

/**
 * Where a metric saved in the editor goes in the draft: replacing the one it edits, else at the end. Answers
 * the message of a clash instead when another metric of the draft has the same name or title.
 */
export function placeMetric(
  metrics: readonly MetricInput[],
  metric: MetricInput,
  editing: string | null,
): { metrics: MetricInput[] } | { error: string } {
  const others = metrics.filter((other) => other.name !== editing);
  if (others.some((other) => other.name === metric.name))
    return { error: `A metric named ${metric.name} is already on the dashboard.` };
  const title = metric.title.trim().toLowerCase();
  if (others.some((other) => other.title.trim().toLowerCase() === title))
    return { error: `“${metric.title.trim()}” is already on the dashboard.` };
  return {
    metrics:
      editing === null
        ? [...metrics, metric]
        : metrics.map((other) => (other.name === editing ? metric : other)),
  };
}
