import { startTransition, useEffect, useState } from "react";

/**
 * The first `batch` items of a list at once, then `batch` more after each paint, until all are shown. A long
 * table renders what the screen shows first, and the rest in short tasks that keep the page responsive
 * (issue #23: total blocking time). A new list starts again from its first batch.
 */
export function useRowsInBatches<T>(items: readonly T[], batch: number): readonly T[] {
  const [state, setState] = useState({ items, shown: batch });
  const shown = state.items === items ? state.shown : batch;
  useEffect(() => {
    if (shown >= items.length) return;
    const timer = setTimeout(() =>
      startTransition(() =>
        setState((current) => ({ items, shown: (current.items === items ? current.shown : batch) + batch })),
      ),
    );
    return () => clearTimeout(timer);
  }, [items, shown, batch]);
  return shown >= items.length ? items : items.slice(0, shown);
}
