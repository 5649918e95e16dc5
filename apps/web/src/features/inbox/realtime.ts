import type { RealtimeEvent } from "@switchboard/api";
import { readStoredViewingAs } from "../../lib/session.ts";
import { wsProtocols } from "../../lib/ws-auth.ts";

export type RealtimeStatus = "connecting" | "live" | "offline";

export type RealtimeOptions = {
  token: () => string | null;
  targetAccountId: () => number | null;
  onEvent: (event: RealtimeEvent) => void;
  onStatus?: (status: RealtimeStatus) => void;
  /** Called after a reconnect caught up: lists and counts may have changed meanwhile. */
  onResync?: () => void;
  /** For tests: the WebSocket class and the page origin. */
  WebSocketImpl?: typeof WebSocket;
  origin?: string;
  /** Waits between reconnects, growing to the last. */
  backoffMs?: readonly number[];
};

/**
 * The inbox's realtime connection: one WebSocket to /api/v1/realtime for the account in view. It remembers
 * the newest message id it delivered and, after a dropped connection, reconnects with `since` so the
 * server sends what was missed; a message id is never delivered twice.
 */
export function connectRealtime(options: RealtimeOptions) {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const backoff = options.backoffMs ?? [250, 500, 1000, 2000, 5000];
  const delivered = new Set<number>();
  let lastMessageId: number | null = null;
  let attempt = 0;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let everConnected = false;

  function url(): string | null {
    const token = options.token();
    if (!token) return null;
    const origin = options.origin ?? window.location.origin;
    const address = new URL("/api/v1/realtime", origin.replace(/^http/, "ws"));
    const target = options.targetAccountId();
    if (target !== null) address.searchParams.set("targetAccountId", String(target));
    const viewingAs = readStoredViewingAs();
    if (viewingAs) address.searchParams.set("viewingAs", viewingAs);
    if (lastMessageId !== null) address.searchParams.set("since", String(lastMessageId));
    return address.toString();
  }

  function schedule() {
    if (closed) return;
    options.onStatus?.("offline");
    const wait = backoff[Math.min(attempt, backoff.length - 1)] ?? 1000;
    attempt += 1;
    timer = setTimeout(open, wait);
  }

  function open() {
    timer = null;
    const address = url();
    if (!address || closed) return;
    options.onStatus?.("connecting");
    // The token travels as a subprotocol, not in the address (lib/ws-auth.ts).
    const ws = new Impl(address, wsProtocols(options.token()));
    socket = ws;
    const resumed = everConnected;
    ws.onmessage = (message) => {
      let event: RealtimeEvent;
      try {
        event = JSON.parse(String(message.data)) as RealtimeEvent;
      } catch {
        return;
      }
      if (event.type === "hello") {
        if (lastMessageId === null) lastMessageId = event.lastMessageId;
        return;
      }
      if (event.type === "ready") {
        attempt = 0;
        everConnected = true;
        options.onStatus?.("live");
        if (resumed) options.onResync?.();
        return;
      }
      if (event.type === "message") {
        if (delivered.has(event.message.id)) return;
        delivered.add(event.message.id);
        lastMessageId = Math.max(lastMessageId ?? 0, event.message.id);
      }
      options.onEvent(event);
    };
    ws.onclose = () => {
      if (socket === ws) socket = null;
      schedule();
    };
    ws.onerror = () => ws.close();
  }

  open();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      socket?.close();
      socket = null;
    },
    /** For tests and diagnostics. */
    get lastMessageId() {
      return lastMessageId;
    },
  };
}
