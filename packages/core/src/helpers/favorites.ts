import { FAVOURITE_AGENTS_SHOWN } from "../constants.ts";

export type FavoriteId = string | number;

/**
 * Favourite agents (product spec §4.5): items in the order of the saved favourites list, the remaining items
 * appended in their given order, limited to the first {@link FAVOURITE_AGENTS_SHOWN}. Ids are compared as strings,
 * so a saved `"12"` matches an agent with id `12`; saved ids with no matching item are ignored.
 */
export function orderFavorites<T>(
  items: readonly T[],
  favorites: readonly FavoriteId[] | null | undefined,
  getId: (item: T) => FavoriteId = (item) => (item as { id: FavoriteId }).id,
  limit: number = FAVOURITE_AGENTS_SHOWN,
): T[] {
  const byId = new Map<string, T>();
  for (const item of items) {
    const key = String(getId(item));
    if (!byId.has(key)) byId.set(key, item);
  }
  const ordered: T[] = [];
  const taken = new Set<T>();
  for (const id of favorites ?? []) {
    const item = byId.get(String(id));
    if (item !== undefined && !taken.has(item)) {
      ordered.push(item);
      taken.add(item);
    }
  }
  for (const item of items) {
    if (!taken.has(item)) {
      ordered.push(item);
      taken.add(item);
    }
  }
  return ordered.slice(0, Math.max(0, limit));
}
