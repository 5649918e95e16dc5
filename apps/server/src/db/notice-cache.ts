import { LRUCache } from "lru-cache";
import type { NotificationListener } from "./notifications.ts";

/**
 * Values read from the database, kept in memory until the database says they changed. Each value belongs
 * to a group (an organisation, say); `changed(group)` makes every value of the group stale at once. The
 * database's triggers notify every instance of each change (see {@link followNotices}), so instances agree.
 *
 * The values live in an LRU cache (lru-cache: size bound, age bound, one read for concurrent misses) under
 * a key that carries the group's version and the listener's epoch, so a change simply moves readers to new
 * keys: nothing stale is answered, and a read begun before a change is never shared after it. A value is
 * kept only when nothing changed while it was read and only while the instance hears notifications (when
 * the listener loses its connection everything is dropped, since notices sent in the gap are lost).
 * `keep` says which values are worth keeping.
 */
export function createNoticeCache<T>(
  options: { maxEntries?: number; maxAgeMs?: number; now?: () => number; keep?: (value: T) => boolean } = {},
) {
  const keep = options.keep ?? (() => true);
  const cache = new LRUCache<string, { value: T }, () => Promise<T>>({
    max: options.maxEntries ?? 20_000,
    ttl: options.maxAgeMs ?? 60_000,
    ttlResolution: 0,
    // A read begun before everything was dropped still answers its caller (it is then not kept).
    ignoreFetchAbort: true,
    ...(options.now ? { perf: { now: options.now } } : {}),
    fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
  });
  const versions = new Map<number, number>();
  let epoch = 0;
  let listening = false;
  let hits = 0;
  let misses = 0;

  const versionOf = (group: number) => versions.get(group) ?? 0;

  function dropAll() {
    epoch++;
    cache.clear();
  }

  return {
    /** The value under `key` of `group`: the stored one if still fresh, else read with `read`. */
    async get(group: number, key: string, read: () => Promise<T>): Promise<T> {
      const version = versionOf(group);
      const startEpoch = epoch;
      const storable = listening;
      const cacheKey = `${startEpoch}:${group}:${version}:${key}`;
      const status: LRUCache.Status<string, { value: T }, () => Promise<T>> = {};
      const entry = (await cache.fetch(cacheKey, { context: read, status })) as { value: T };
      if (status.fetch === "hit") hits++;
      else misses++;
      const unchanged = version === versionOf(group) && startEpoch === epoch;
      if (!storable || !unchanged || !keep(entry.value)) cache.delete(cacheKey);
      return entry.value;
    },

    /** Something of the group changed: its values are stale from now on. */
    changed(group: number): void {
      versions.set(group, versionOf(group) + 1);
    },

    /** Everything changed. */
    changedAll: dropAll,

    /** Whether change notices are being heard; any gap drops everything. */
    setListening(value: boolean): void {
      listening = value;
      dropAll();
    },

    stats: () => ({ entries: cache.size, hits, misses }),
  };
}

export type NoticeCache<T> = ReturnType<typeof createNoticeCache<T>>;

/**
 * Keeps `cache` in step with the database's notices on `channel`: `groupOf(payload)` names the group that
 * changed (null: everything). Answers how to stop.
 */
export async function followNotices<T>(
  cache: NoticeCache<T>,
  notifications: NotificationListener,
  channel: string,
  groupOf: (payload: string) => number | null,
): Promise<() => void> {
  cache.setListening(notifications.isListening());
  const stopHearing = notifications.onListening((listening) => cache.setListening(listening));
  const unfollow = await notifications.follow(channel, (payload) => {
    const group = groupOf(payload);
    if (group === null) cache.changedAll();
    else cache.changed(group);
  });
  return () => {
    unfollow();
    stopHearing();
  };
}
