import type { RealtimeEvent } from "@switchboard/api";
import type { FastifyBaseLogger } from "fastify";
import type { NotificationListener } from "../db/notifications.ts";

/** The PostgreSQL channel every server instance listens on. */
export const REALTIME_CHANNEL = "switchboard_realtime";
/** NOTIFY payloads must stay under 8000 bytes; larger events travel as a reference and are loaded. */
const MAX_PAYLOAD_BYTES = 7000;

/** An event for one organisation; `agentId` limits it to connections of that agent account (and above). */
export type RealtimeEnvelope = { orgId: number; agentId: number | null; event: RealtimeEvent };
type Wire = { o: number; a: number | null; e?: RealtimeEvent; m?: number };

export type RealtimeListener = (envelope: RealtimeEnvelope) => void;

/**
 * Fan-out of realtime events (inbox, contacts; call state to come) across server instances: publish()
 * sends a NOTIFY on the shared database; every instance (this one too) hears it on its notification
 * listener and hands each event to its local subscribers of that organisation.
 */
export function createRealtimeHub(deps: {
  notifications: NotificationListener;
  log: FastifyBaseLogger;
  /** Told of each publish, synchronously: this instance's own writes are known before their notices arrive. */
  onPublish?: (orgId: number) => void;
  /** Loads a message event that was too large to travel in a NOTIFY. */
  loadMessageEvent: (messageId: number) => Promise<RealtimeEvent | null>;
}) {
  const subscribers = new Map<number, Set<RealtimeListener>>();
  let stopped = false;
  let unfollow: (() => void) | null = null;

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
    if (stopped) return;
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

  return {
    async start(): Promise<void> {
      unfollow = await deps.notifications.follow(REALTIME_CHANNEL, (payload) => void onPayload(payload));
    },

    stop(): void {
      stopped = true;
      subscribers.clear();
      unfollow?.();
    },

    /** Sends an event to every instance's subscribers of the organisation (after the data is stored). */
    async publish(envelope: RealtimeEnvelope): Promise<void> {
      deps.onPublish?.(envelope.orgId);
      let payload = JSON.stringify({
        o: envelope.orgId,
        a: envelope.agentId,
        e: envelope.event,
      } satisfies Wire);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        if (envelope.event.type !== "message") return;
        payload = JSON.stringify({ o: envelope.orgId, a: envelope.agentId, m: envelope.event.message.id });
      }
      try {
        await deps.notifications.notify(REALTIME_CHANNEL, payload);
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
