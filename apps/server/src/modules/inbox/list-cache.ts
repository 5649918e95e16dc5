/** The channel the database's triggers (migration 0009) notify with the id of an organisation whose inbox changed. */
export const INBOX_CHANGED_CHANNEL = "switchboard_inbox_changed";

type Entry = { orgId: number; version: number; epoch: number; storedAt: number; text: string };

/**
 * Answered inbox list pages (serialised JSON), kept in memory until their organisation's inbox changes.
 * The database notifies every instance of each change (triggers on rooms, messages, read state, contacts,
 * participants and agent accounts), and `changed(orgId)` makes that organisation's pages stale at once.
 *
 * A page is only stored when nothing changed while it was read (the organisation's version and the
 * listener's epoch are the same after the read as before), and only while the instance is hearing
 * notifications: when the listener loses its connection, every page is dropped and nothing is stored until
 * it listens again, since notices sent in the gap are lost. `maxAgeMs` bounds any page's life besides.
 * Concurrent misses of one page share one read.
 */
export function createInboxListCache(
  options: { maxEntries?: number; maxAgeMs?: number; now?: () => number } = {},
) {
  const maxEntries = options.maxEntries ?? 20_000;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const reading = new Map<string, { version: number; epoch: number; text: Promise<string> }>();
  const versions = new Map<number, number>();
  let epoch = 0;
  let listening = false;
  let hits = 0;
  let misses = 0;

  const versionOf = (orgId: number) => versions.get(orgId) ?? 0;
  const fresh = (entry: { orgId: number; version: number; epoch: number }) =>
    entry.version === versionOf(entry.orgId) && entry.epoch === epoch;

  function store(key: string, entry: Entry) {
    entries.set(key, entry);
    // Map keeps insertion order, and a hit re-inserts its key: the first key is the least recently used.
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      entries.delete(oldest);
    }
  }

  return {
    /** The page under `key` of organisation `orgId`: stored if still fresh, else read with `read`. */
    async get(orgId: number, key: string, read: () => Promise<string>): Promise<string> {
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        if (fresh(entry) && now() - entry.storedAt < maxAgeMs) {
          entries.set(key, entry);
          hits++;
          return entry.text;
        }
      }
      misses++;
      const pending = reading.get(key);
      if (pending && fresh({ orgId, ...pending })) return pending.text;

      const version = versionOf(orgId);
      const startEpoch = epoch;
      const storable = listening;
      const text = read();
      reading.set(key, { version, epoch: startEpoch, text });
      try {
        const answer = await text;
        if (storable && fresh({ orgId, version, epoch: startEpoch }))
          store(key, { orgId, version, epoch: startEpoch, storedAt: now(), text: answer });
        return answer;
      } finally {
        if (reading.get(key)?.text === text) reading.delete(key);
      }
    },

    /** The organisation's inbox changed: its pages are stale from now on. */
    changed(orgId: number): void {
      versions.set(orgId, versionOf(orgId) + 1);
    },

    /** Whether change notices are being heard; any gap drops every page. */
    setListening(value: boolean): void {
      listening = value;
      epoch++;
      entries.clear();
    },

    stats: () => ({ entries: entries.size, hits, misses }),
  };
}

export type InboxListCache = ReturnType<typeof createInboxListCache>;
