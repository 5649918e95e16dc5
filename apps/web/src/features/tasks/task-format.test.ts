import { describe, expect, it } from "vitest";
import { LIST_STATE_LABELS, listActions, listProgress, outcomeSummary, taskActions } from "./task-format.ts";

const counts = (byState: Record<string, number>, byOutcome: Record<string, number> = {}) => ({
  total: Object.values(byState).reduce((a, b) => a + b, 0),
  byState,
  byOutcome,
});

describe("listProgress", () => {
  it("counts finished, running and waiting tasks, leaving deleted ones out", () => {
    expect(
      listProgress(
        counts({
          completed: 3,
          failed: 1,
          cancelled: 1,
          in_progress: 1,
          queued: 2,
          scheduled: 1,
          deleted: 2,
        }),
      ),
    ).toEqual({
      total: 9,
      done: 5,
      running: 1,
      waiting: 3,
      completed: 3,
      failed: 1,
      cancelled: 1,
      percent: 56,
    });
  });

  it("is 0 percent for an empty list", () => {
    expect(listProgress(counts({})).percent).toBe(0);
  });
});

describe("outcomeSummary", () => {
  it("names the outcomes, most frequent first", () => {
    expect(outcomeSummary(counts({}, { replied: 1, voicemail_left: 3, no_answer: 0 }))).toBe(
      "3 voicemail left · 1 replied",
    );
    expect(outcomeSummary(counts({}))).toBe("");
  });
});

describe("listActions and taskActions", () => {
  it("offers pause while tasks wait, resume when paused, nothing once cancelled or done", () => {
    const waiting = listProgress(counts({ queued: 1 }));
    const done = listProgress(counts({ completed: 2 }));
    expect(listActions("active", waiting)).toEqual(["pause", "cancel"]);
    expect(listActions("active", done)).toEqual([]);
    expect(listActions("paused", waiting)).toEqual(["resume", "cancel"]);
    expect(listActions("cancelled", waiting)).toEqual([]);
    // A list with nothing left to run reads Finished, with nothing to pause or cancel.
    expect(LIST_STATE_LABELS.finished).toBe("Finished");
    expect(listActions("finished", done)).toEqual([]);
  });

  it("lets a waiting task change or be cancelled, and a failed one run again", () => {
    expect(taskActions("queued")).toEqual({ edit: true, cancel: true, runAgain: false, remove: true });
    expect(taskActions("failed")).toEqual({ edit: false, cancel: false, runAgain: true, remove: true });
    expect(taskActions("in_progress")).toEqual({
      edit: false,
      cancel: false,
      runAgain: false,
      remove: false,
    });
  });
});
