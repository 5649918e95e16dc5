import type { OverlayName } from "./overlay-names.ts";

/** Pure query-string edits behind useOverlays(); `search` is `location.search` (with or without "?"). */

function toSearch(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Opens an overlay: its key set to "true" or the given value. */
export function searchWithOverlay(search: string, name: OverlayName, value = "true"): string {
  const params = new URLSearchParams(search);
  params.set(name, value);
  return toSearch(params);
}

/** Closes an overlay: its key removed. */
export function searchWithoutOverlay(search: string, name: OverlayName): string {
  const params = new URLSearchParams(search);
  params.delete(name);
  return toSearch(params);
}

/** Replaces one overlay with another in a single query. */
export function searchWithSwitchedOverlay(
  search: string,
  from: OverlayName,
  to: OverlayName,
  value = "true",
): string {
  const params = new URLSearchParams(search);
  params.delete(from);
  params.set(to, value);
  return toSearch(params);
}

export type OpenOverlay = { name: OverlayName; value: string };

/** The allowed overlays named in the query, in query order, each once. */
export function openOverlaysOf(search: string, allowed: ReadonlySet<OverlayName>): OpenOverlay[] {
  const open: OpenOverlay[] = [];
  const seen = new Set<string>();
  for (const [key, value] of new URLSearchParams(search)) {
    if (seen.has(key) || !allowed.has(key as OverlayName)) continue;
    seen.add(key);
    open.push({ name: key as OverlayName, value });
  }
  return open;
}
