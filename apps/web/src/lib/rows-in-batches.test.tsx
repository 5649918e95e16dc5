import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useRowsInBatches } from "./rows-in-batches.ts";

/** An IntersectionObserver whose reports the test sends. */
class FakeObserver {
  static all: FakeObserver[] = [];
  observed: Element[] = [];
  disconnected = false;
  constructor(private readonly report: (entries: { isIntersecting: boolean }[]) => void) {
    FakeObserver.all.push(this);
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  send(isIntersecting: boolean) {
    this.report([{ isIntersecting }]);
  }
  static live() {
    return FakeObserver.all.filter((observer) => !observer.disconnected);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeObserver.all = [];
});

describe("useRowsInBatches", () => {
  it("draws the first rows, then more each time their end nears the screen", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    const items = Array.from({ length: 50 }, (_, i) => i);
    const { result } = renderHook(() => useRowsInBatches(items, 20));
    expect(result.current.rows).toHaveLength(20);
    const end = document.createElement("div");
    act(() => result.current.endRef(end));
    const [first] = FakeObserver.live();
    expect(first?.observed).toEqual([end]);
    // Far from the screen: nothing more is drawn.
    act(() => first?.send(false));
    expect(result.current.rows).toHaveLength(20);
    await act(async () => first?.send(true));
    expect(result.current.rows).toHaveLength(40);
    await act(async () => FakeObserver.live()[0]?.send(true));
    expect(result.current.rows).toBe(items);
    expect(FakeObserver.live()).toHaveLength(0);
  });

  it("starts a new list from its first rows, and shows a short list whole", () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    const long = Array.from({ length: 30 }, (_, i) => i);
    const { result, rerender } = renderHook(({ items }) => useRowsInBatches(items, 20), {
      initialProps: { items: [1, 2, 3] },
    });
    expect(result.current.rows).toEqual([1, 2, 3]);
    rerender({ items: long });
    expect(result.current.rows).toHaveLength(20);
  });

  it("draws the rest after the first rows where intersections cannot be observed", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    vi.useFakeTimers();
    try {
      const items = Array.from({ length: 100 }, (_, i) => i);
      const { result } = renderHook(() => useRowsInBatches(items, 20));
      expect(result.current.rows).toHaveLength(20);
      await act(async () => vi.advanceTimersToNextTimer());
      expect(result.current.rows).toBe(items);
    } finally {
      vi.useRealTimers();
    }
  });
});
