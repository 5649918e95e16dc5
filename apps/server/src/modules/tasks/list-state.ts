import type { TaskListState } from "@switchboard/api";
import type { Counts } from "./tasks.repository.ts";

/** Task states with work still to do: a list with none of them has finished. */
export const OPEN_TASK_STATES = ["queued", "scheduled", "in_progress"] as const;

/** The list has tasks (deleted ones aside) and none of them has anything left to run. */
export function listHasFinished(counts: Counts): boolean {
  const open = OPEN_TASK_STATES.reduce((sum, state) => sum + (counts.byState[state] ?? 0), 0);
  return open === 0 && counts.total - (counts.byState.deleted ?? 0) > 0;
}

/**
 * The state a list is shown in: its stored one (active, paused, cancelled), except that a list that is not
 * cancelled and has nothing left to run has finished, as the notification of its end says.
 */
export function shownListState(stored: "active" | "paused" | "cancelled", counts: Counts): TaskListState {
  return stored !== "cancelled" && listHasFinished(counts) ? "finished" : stored;
}
