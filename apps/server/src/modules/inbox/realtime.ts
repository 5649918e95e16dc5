import type { RealtimeEvent } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { DatabaseHandle } from "../../db/client.ts";

/** The PostgreSQL channel every server instance listens on. */
export const REALTIME_CHANNEL = "switchboard_realtime";
/** NOTIFY payloads must stay under 8000 bytes; larger events travel as a reference and are loaded. */
const MAX_PAYLOAD_BYTES = 7000;

/** An event for one organisation; `agentId` limits it to connections of that agent account (and above). */
export type RealtimeEnvelope = { orgId: number; agentId: number | null; event: RealtimeEvent };
type Wire = { o: number; a: number | null; e?: RealtimeEvent; m?: number };

export type RealtimeListener = (envelope: RealtimeEnvelope) => void;

/**
 * Fan-out of inbox events across server instances: publish() sends a NOTIFY on the shared database; every
 * instance (this one too) LISTENs and hands each event to its local subscribers of that organisation. On
 * PGlite LISTEN/NOTIFY works in-process; on PostgreSQL a dedicated connection listens and reconnects.
 */
export function createRealtimeHub(deps: {
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Loads a message event that was too large to travel in a NOTIFY. */
  loadMessageEvent: (messageId: number) => Promise<RealtimeEvent | null>;
}) {
  const subscribers = new Map<number, Set<RealtimeListener>>();
  let stopped = false;
  let stopListening: (() => Promise<void>) | null = null;

  function deliver(envelope: RealtimeEnvelope) {
    for (const listener of subscribers.get(envelope.orgId) ?? []) {
      try {
        listener(envelope);
      } catch (error) {
        deps.log.warn({ err: error }, "realtime subscriber failed");
      }
    }
  }

  async function onPayload(payload: string) {
    let wire: Wire;
    try {
      wire = JSON.parse(payload) as Wire;
    } catch {
      return;
    }
    let event = wire.e ?? null;
    if (!event && wire.m !== undefined) event = await deps.loadMessageEvent(wire.m).catch(() => null);
    if (event) deliver({ orgId: wire.o, agentId: wire.a, event });
  }

  async function listenPostgres(pool: pg.Pool): Promise<void> {
    let client: pg.PoolClient | null = null;
    // A connection may report an error after it was given back (at stop, or a second error): release once.
    const released = new WeakSet<pg.PoolClient>();
    const release = (held: pg.PoolClient, destroy = false) => {
      if (released.has(held)) return;
      released.add(held);
      held.release(destroy);
    };
    const connect = async (): Promise<void> => {
      if (stopped) return;
      try {
        client = await pool.connect();
        const held = client;
        held.on("notification", (message) => {
          if (message.channel === REALTIME_CHANNEL && message.payload) void onPayload(message.payload);
        });
        held.on("error", (error) => {
          if (released.has(held)) return;
          deps.log.warn({ err: error }, "realtime listener connection lost; reconnecting");
          release(held, true);
          if (client === held) client = null;
          setTimeout(() => void connect(), 1000).unref();
        });
        await held.query(`LISTEN ${REALTIME_CHANNEL}`);
      } catch (error) {
        deps.log.warn({ err: error }, "realtime listener could not connect; retrying");
        setTimeout(() => void connect(), 1000).unref();
      }
    };
    await connect();
    stopListening = async () => {
      const held = client;
      client = null;
      if (!held) return;
      await held.query(`UNLISTEN ${REALTIME_CHANNEL}`).catch(() => {});
      release(held);
    };
  }

  return {
    async start(): Promise<void> {
      const { driver } = deps.database;
      if (driver.kind === "pglite") {
        const unlisten = await driver.client.listen(REALTIME_CHANNEL, (payload) => void onPayload(payload));
        stopListening = () => unlisten();
      } else {
        await listenPostgres(driver.pool);
      }
    },

    async stop(): Promise<void> {
      stopped = true;
      subscribers.clear();
      await stopListening?.().catch(() => {});
    },

    /** Sends an event to every instance's subscribers of the organisation (after the data is stored). */
    async publish(envelope: RealtimeEnvelope): Promise<void> {
      let payload = JSON.stringify({
        o: envelope.orgId,
        a: envelope.agentId,
        e: envelope.event,
      } satisfies Wire);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        if (envelope.event.type !== "message") return;
        payload = JSON.stringify({ o: envelope.orgId, a: envelope.agentId, m: envelope.event.message.id });
      }
      const { driver } = deps.database;
      try {
        if (driver.kind === "pglite")
          await driver.client.query("select pg_notify($1, $2)", [REALTIME_CHANNEL, payload]);
        else await driver.pool.query("select pg_notify($1, $2)", [REALTIME_CHANNEL, payload]);
      } catch (error) {
        // The data is stored: a browser that misses the event catches up when it reconnects.
        deps.log.warn({ err: error }, "could not publish a realtime event");
      }
    },

    subscribe(orgId: number, listener: RealtimeListener): () => void {
      let set = subscribers.get(orgId);
      if (!set) {
        set = new Set();
        subscribers.set(orgId, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) subscribers.delete(orgId);
      };
    },

    /** Open subscriptions (for tests and the health of the instance). */
    subscriberCount(): number {
      let count = 0;
      for (const set of subscribers.values()) count += set.size;
      return count;
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
