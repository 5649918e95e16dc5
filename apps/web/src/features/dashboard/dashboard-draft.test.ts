import type { MetricInput } from "@switchboard/api";
import { afterEach, describe, expect, it } from "vitest";
import { discardUnlessEditing, draftFor, placeMetric, setDraft } from "./dashboard-draft.ts";

const metric = (name: string, title: string): MetricInput =>
  ({ name, title, formula: "1", aggregation: "count", filters: {} }) as unknown as MetricInput;

describe("the dashboard draft", () => {
  afterEach(() => discardUnlessEditing(""));

  it("adds a metric at the end, replaces the one edited, and refuses a second of the same name or title", () => {
    const metrics = [metric("longCalls", "Long calls"), metric("booked", "Booked")];
    expect(placeMetric(metrics, metric("shortCalls", "Short calls"), null)).toEqual({
      metrics: [...metrics, metric("shortCalls", "Short calls")],
    });
    expect(placeMetric(metrics, metric("longCalls", "Very long calls"), "longCalls")).toEqual({
      metrics: [metric("longCalls", "Very long calls"), metrics[1]],
    });
    expect(placeMetric(metrics, metric("longCalls2", "long calls "), null)).toEqual({
      error: "“long calls” is already on the dashboard.",
    });
    expect(placeMetric(metrics, metric("booked", "Bookings"), null)).toEqual({
      error: "A metric named booked is already on the dashboard.",
    });
  });

  it("belongs to one account and is discarded once neither editing overlay is open", () => {
    setDraft("7:owner", [metric("a", "A")]);
    expect(draftFor("8:owner")).toBeNull();
    discardUnlessEditing("?editMetric=new");
    expect(draftFor("7:owner")).toHaveLength(1);
    discardUnlessEditing("?dateFilter=7+day");
    expect(draftFor("7:owner")).toBeNull();
  });
});
