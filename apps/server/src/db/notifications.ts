import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { DatabaseHandle } from "./client.ts";

export type NotificationHandler = (payload: string) => void;
/** Told when the instance starts or stops hearing notifications (a gap means some may have been missed). */
export type ListeningHandler = (listening: boolean) => void;

const RECONNECT_MS = 1000;

type Held = { connection: pg.PoolClient; released: boolean };

/**
 * The instance's one LISTEN connection, shared by everything that follows a channel (realtime events,
 * cache invalidation). On PGlite LISTEN/NOTIFY works in-process; on PostgreSQL a dedicated pool connection
 * listens and reconnects after a loss. A follower that keeps state derived from notifications (a cache)
 * must drop it when `listening` turns false: notifications sent during the gap are not replayed.
 */
export function createNotificationListener(deps: { database: DatabaseHandle; log: FastifyBaseLogger }) {
  const handlers = new Map<string, Set<NotificationHandler>>();
  const listeningHandlers = new Set<ListeningHandler>();
  let listening = false;
  let started = false;
  let stopped = false;
  // PostgreSQL: the held connection; PGlite: one unlisten function per channel.
  let current: Held | null = null;
  const pgliteUnlisten = new Map<string, () => Promise<void>>();

  function setListening(value: boolean) {
    if (listening === value) return;
    listening = value;
    for (const handler of listeningHandlers) handler(value);
  }

  function dispatch(channel: string, payload: string) {
    for (const handler of handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        deps.log.warn({ err: error, channel }, "notification handler failed");
      }
    }
  }

  const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

  async function listenOn(channel: string): Promise<void> {
    const { driver } = deps.database;
    if (driver.kind === "pglite") {
      if (pgliteUnlisten.has(channel)) return;
      pgliteUnlisten.set(
        channel,
        await driver.client.listen(channel, (payload) => dispatch(channel, payload)),
      );
    } else if (current) {
      await current.connection.query(`LISTEN ${quote(channel)}`);
    }
  }

  // A connection may report an error after it was given back (at stop, or a second error): release once.
  const release = (held: Held, destroy: boolean) => {
    if (held.released) return;
    held.released = true;
    held.connection.release(destroy);
  };

  async function connectPostgres(pool: pg.Pool): Promise<void> {
    if (stopped) return;
    const retry = () => setTimeout(() => void connectPostgres(pool), RECONNECT_MS).unref();
    let held: Held | null = null;
    try {
      const entry: Held = { connection: await pool.connect(), released: false };
      held = entry;
      entry.connection.on("notification", (message) => dispatch(message.channel, message.payload ?? ""));
      entry.connection.on("error", (error) => {
        if (entry.released) return;
        deps.log.warn({ err: error }, "notification listener connection lost; reconnecting");
        release(entry, true);
        if (current === entry) {
          current = null;
          setListening(false);
        }
        retry();
      });
      for (const channel of handlers.keys()) await entry.connection.query(`LISTEN ${quote(channel)}`);
      if (stopped) return release(entry, false);
      current = entry;
      setListening(true);
    } catch (error) {
      if (held?.released) return; // the error handler above already reconnects
      deps.log.warn({ err: error }, "notification listener could not connect; retrying");
      if (held) release(held, true);
      retry();
    }
  }

  return {
    async start(): Promise<void> {
      if (started) return;
      started = true;
      const { driver } = deps.database;
      if (driver.kind === "pglite") {
        for (const channel of handlers.keys()) await listenOn(channel);
        setListening(true);
      } else {
        await connectPostgres(driver.pool);
      }
    },

    async stop(): Promise<void> {
      stopped = true;
      setListening(false);
      for (const unlisten of pgliteUnlisten.values()) await unlisten().catch(() => {});
      pgliteUnlisten.clear();
      const held = current;
      current = null;
      if (held) {
        await held.connection.query("UNLISTEN *").catch(() => {});
        release(held, false);
      }
    },

    /** Calls `handler` with the payload of every notification on `channel`; answers how to stop. */
    async follow(channel: string, handler: NotificationHandler): Promise<() => void> {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        if (started && !stopped) await listenOn(channel);
      }
      set.add(handler);
      return () => set.delete(handler);
    },

    /** Calls `handler` whenever hearing starts or stops; answers how to stop. */
    onListening(handler: ListeningHandler): () => void {
      listeningHandlers.add(handler);
      return () => listeningHandlers.delete(handler);
    },

    isListening: () => listening,

    /** Sends a notification to every instance (this one too). */
    async notify(channel: string, payload: string): Promise<void> {
      await deps.database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
  };
}

export type NotificationListener = ReturnType<typeof createNotificationListener>;
