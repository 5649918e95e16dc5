import type { TaskCounts, TaskListState, TaskOutcome, TaskState } from "@switchboard/api";

/** How states, outcomes and list progress read on the Tasks page. */

export const STATE_LABELS: Record<TaskState, string> = {
  queued: "Queued",
  scheduled: "Scheduled",
  in_progress: "In progress",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  deleted: "Deleted",
};

export const STATE_COLORS: Record<TaskState, string> = {
  queued: "gray",
  scheduled: "indigo",
  in_progress: "blue",
  completed: "teal",
  failed: "red",
  cancelled: "orange",
  deleted: "dark",
};

export const OUTCOME_LABELS: Record<TaskOutcome, string> = {
  answered: "Answered",
  voicemail_left: "Voicemail left",
  no_answer: "No answer",
  busy: "Busy",
  failed: "Failed",
  opted_out: "Opted out",
  booked: "Booked",
  transferred: "Transferred",
  replied: "Replied",
};

export const LIST_STATE_LABELS: Record<TaskListState, string> = {
  active: "Running",
  paused: "Paused",
  cancelled: "Cancelled",
  finished: "Finished",
};

/** States a task has finished in (nothing more will happen to it). */
const FINISHED: readonly TaskState[] = ["completed", "failed", "cancelled"];

export type ListProgress = {
  total: number;
  done: number;
  running: number;
  waiting: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Finished tasks, percent of the list (0 for an empty list). */
  percent: number;
};

/** A list's progress from its counts by state (deleted tasks do not count). */
export function listProgress(counts: TaskCounts): ListProgress {
  const n = (state: TaskState) => counts.byState[state] ?? 0;
  const total = counts.total - n("deleted");
  const done = FINISHED.reduce((sum, state) => sum + n(state), 0);
  return {
    total,
    done,
    running: n("in_progress"),
    waiting: n("queued") + n("scheduled"),
    completed: n("completed"),
    failed: n("failed"),
    cancelled: n("cancelled"),
    percent: total > 0 ? Math.round((done / total) * 100) : 0,
  };
}

/** "3 replied · 1 opted out": a list's outcomes, most frequent first. */
export function outcomeSummary(counts: TaskCounts): string {
  return Object.entries(counts.byOutcome)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(
      ([outcome, count]) => `${count} ${(OUTCOME_LABELS[outcome as TaskOutcome] ?? outcome).toLowerCase()}`,
    )
    .join(" · ");
}

/** Which list actions fit a list in this state. */
export function listActions(state: TaskListState, progress: ListProgress): ("pause" | "resume" | "cancel")[] {
  if (state === "cancelled" || state === "finished") return [];
  const unfinished = progress.waiting + progress.running > 0;
  if (state === "paused") return ["resume", "cancel"];
  return unfinished ? ["pause", "cancel"] : [];
}

/** A task that has not run yet can still be changed or cancelled; a finished one can run again. */
export function taskActions(state: TaskState) {
  return {
    edit: state === "queued" || state === "scheduled",
    cancel: state === "queued" || state === "scheduled",
    runAgain: state === "failed" || state === "cancelled",
    remove: state !== "in_progress" && state !== "deleted",
  };
}
