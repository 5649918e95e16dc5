import type { NotificationListener } from "./notifications.ts";

type Entry<T> = { group: number; version: number; epoch: number; storedAt: number; value: T };

/**
 * Values read from the database, kept in memory until the database says they changed. Each value belongs
 * to a group (an organisation, say); `changed(group)` makes every value of the group stale at once. The
 * database's triggers notify every instance of each change (see {@link followNotices}), so instances agree.
 *
 * A value is only stored when nothing changed while it was read (its group's version and the listener's
 * epoch are the same after the read as before), and only while the instance is hearing notifications: when
 * the listener loses its connection, everything is dropped and nothing is stored until it listens again,
 * since notices sent in the gap are lost. `maxAgeMs` bounds any value's life besides, `keep` says which
 * values are worth keeping, and concurrent misses of one key share one read.
 */
export function createNoticeCache<T>(
  options: { maxEntries?: number; maxAgeMs?: number; now?: () => number; keep?: (value: T) => boolean } = {},
) {
  const maxEntries = options.maxEntries ?? 20_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const now = options.now ?? Date.now;
  const keep = options.keep ?? (() => true);
  const entries = new Map<string, Entry<T>>();
  const reading = new Map<string, { version: number; epoch: number; value: Promise<T> }>();
  const versions = new Map<number, number>();
  let epoch = 0;
  let listening = false;
  let hits = 0;
  let misses = 0;

  const versionOf = (group: number) => versions.get(group) ?? 0;
  const fresh = (entry: { group: number; version: number; epoch: number }) =>
    entry.version === versionOf(entry.group) && entry.epoch === epoch;

  function dropAll() {
    epoch++;
    entries.clear();
  }

  function store(key: string, entry: Entry<T>) {
    entries.set(key, entry);
    // Map keeps insertion order, and a hit re-inserts its key: the first key is the least recently used.
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  }

  return {
    /** The value under `key` of `group`: the stored one if still fresh, else read with `read`. */
    async get(group: number, key: string, read: () => Promise<T>): Promise<T> {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        if (fresh(entry) && now() - entry.storedAt < maxAgeMs) {
          entries.set(key, entry);
          hits++;
          return entry.value;
        }
      }
      misses++;
      const pending = reading.get(key);
      if (pending && fresh({ group, ...pending })) return pending.value;

      const version = versionOf(group);
      const startEpoch = epoch;
      const storable = listening;
      const value = read();
      reading.set(key, { version, epoch: startEpoch, value });
      try {
        const answer = await value;
        if (storable && fresh({ group, version, epoch: startEpoch }) && keep(answer))
          store(key, { group, version, epoch: startEpoch, storedAt: now(), value: answer });
        return answer;
      } finally {
        if (reading.get(key)?.value === value) reading.delete(key);
      }
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

    stats: () => ({ entries: entries.size, hits, misses }),
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
