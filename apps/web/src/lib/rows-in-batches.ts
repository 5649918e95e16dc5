import { startTransition, useEffect, useState } from "react";

/**
 * The first `first` items of a list at once, then the rest in one step after that has painted. A long
 * table shows what the screen holds at once; the rest follows as a transition (issue #23: total blocking
 * time). One step, not many: each step lays out and paints the whole table again, so at a page of 100 rows
 * five steps of 20 blocked the page longer than one of 80. A new list starts again from its first rows.
 */
export function useRowsInBatches<T>(items: readonly T[], first: number): readonly T[] {
  const [state, setState] = useState({ items, whole: false });
  const whole = state.items === items && state.whole;
  useEffect(() => {
    if (whole || items.length <= first) return;
    const timer = setTimeout(() => startTransition(() => setState({ items, whole: true })));
    return () => clearTimeout(timer);
  }, [items, whole, first]);
  return whole || items.length <= first ? items : items.slice(0, first);
}
