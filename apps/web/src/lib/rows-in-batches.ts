import { startTransition, useEffect, useState } from "react";

/** How far below the screen the end of the shown rows may be before more are drawn. */
const AHEAD = "600px";

/**
 * A long list drawn as it is reached (issue #23: total blocking time): the first `step` items at once, then
 * `step` more each time the end of what is shown comes within 600 px of the screen. Every step lays out and
 * paints the whole table again, so rows nobody has scrolled to are not drawn while the page loads. Attach
 * `endRef` to an element right after the list. A new list starts again from its first rows. Where the
 * browser cannot observe intersections the rest follows in one step after the first has painted.
 */
export function useRowsInBatches<T>(
  items: readonly T[],
  step: number,
): { rows: readonly T[]; endRef: (node: Element | null) => void } {
  const [state, setState] = useState({ items, count: step });
  const count = state.items === items ? state.count : step;
  const [end, setEnd] = useState<Element | null>(null);
  const more = count < items.length;
  useEffect(() => {
    if (!more) return;
    const grow = () => startTransition(() => setState({ items, count: count + step }));
    if (typeof IntersectionObserver === "undefined") {
      const timer = setTimeout(() => startTransition(() => setState({ items, count: items.length })));
      return () => clearTimeout(timer);
    }
    if (!end) return;
    // A new observer each step: its first report says whether the end is still near (a tall screen).
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          grow();
        }
      },
      { rootMargin: `0px 0px ${AHEAD} 0px` },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, [items, count, step, more, end]);
  return { rows: more ? items.slice(0, count) : items, endRef: setEnd };
}
