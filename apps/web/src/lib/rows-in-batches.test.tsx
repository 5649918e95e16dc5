import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useRowsInBatches } from "./rows-in-batches.ts";

describe("useRowsInBatches", () => {
  it("shows the first rows at once and the rest in one step after", async () => {
    vi.useFakeTimers();
    try {
      const items = Array.from({ length: 100 }, (_, i) => i);
      const { result } = renderHook(() => useRowsInBatches(items, 20));
      expect(result.current).toHaveLength(20);
      await act(async () => vi.advanceTimersToNextTimer());
      expect(result.current).toBe(items);
      await act(async () => vi.advanceTimersToNextTimer());
      expect(result.current).toBe(items);
    } finally {
      vi.useRealTimers();
    }
  });

  it("starts a new list from its first rows, and shows a short list whole", async () => {
    const long = Array.from({ length: 30 }, (_, i) => i);
    const { result, rerender } = renderHook(({ items }) => useRowsInBatches(items, 20), {
      initialProps: { items: [1, 2, 3] },
    });
    expect(result.current).toEqual([1, 2, 3]);
    rerender({ items: long });
    expect(result.current).toHaveLength(20);
  });
});
