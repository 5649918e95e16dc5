import type { InboxMessage, RealtimeEvent } from "@switchboard/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withListMessage, withMessage } from "./api.ts";
import { connectRealtime } from "./realtime.ts";

/** A WebSocket stand-in: the test plays the server's frames and drops the connection. */
class FakeSocket {
  static opened: FakeSocket[] = [];
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols?: string[],
  ) {
    FakeSocket.opened.push(this);
  }
  serve(event: RealtimeEvent) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  close() {
    this.onclose?.();
  }
}

const message = (id: number, text = `m${id}`): InboxMessage => ({
  id,
  roomId: "room-1",
  role: "user",
  text,
  media: [],
  senderUserId: null,
  senderName: null,
  senderAddress: "+15035550199",
  status: "complete",
  error: null,
  deliveryStatus: "received",
  reactions: [],
  createdAt: 1_700_000_000_000 + id,
});

afterEach(() => {
  FakeSocket.opened = [];
  vi.useRealTimers();
});

describe("the realtime connection", () => {
  it("reconnects after a drop with the last message it delivered and never delivers a message twice", () => {
    vi.useFakeTimers();
    const delivered: number[] = [];
    const statuses: string[] = [];
    let resyncs = 0;
    const connection = connectRealtime({
      token: () => "tok",
      targetAccountId: () => 7,
      origin: "http://app.example",
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      onEvent: (event) => {
        if (event.type === "message") delivered.push(event.message.id);
      },
      onStatus: (status) => statuses.push(status),
      onResync: () => resyncs++,
      backoffMs: [100],
    });
    const first = FakeSocket.opened[0] as FakeSocket;
    // The session is offered as a subprotocol, never in the address.
    expect(first.url).toBe("ws://app.example/api/v1/realtime?targetAccountId=7");
    expect(first.protocols).toEqual(["switchboard.bearer", "tok"]);
    first.serve({ type: "hello", orgId: 3, lastMessageId: 40 });
    first.serve({ type: "ready", lastMessageId: 40 });
    first.serve({ type: "message", roomId: "room-1", folder: "priority", message: message(41) });
    first.serve({ type: "message", roomId: "room-1", folder: "priority", message: message(41) });
    expect(delivered).toEqual([41]);
    first.close();
    expect(statuses.at(-1)).toBe("offline");
    vi.advanceTimersByTime(100);
    const second = FakeSocket.opened[1] as FakeSocket;
    expect(new URL(second.url).searchParams.get("since")).toBe("41");
    second.serve({ type: "hello", orgId: 3, lastMessageId: 43 });
    second.serve({ type: "message", roomId: "room-1", folder: "priority", message: message(41) });
    second.serve({ type: "message", roomId: "room-1", folder: "priority", message: message(42) });
    second.serve({ type: "message", roomId: "room-1", folder: "priority", message: message(43) });
    second.serve({ type: "ready", lastMessageId: 43 });
    expect(delivered).toEqual([41, 42, 43]);
    expect(resyncs).toBe(1);
    expect(statuses.at(-1)).toBe("live");
    connection.close();
    expect(FakeSocket.opened).toHaveLength(2);
  });
});

describe("the cached inbox", () => {
  it("adds a new message to the open conversation once", () => {
    const detail = { roomId: "room-1", messages: [message(1)] } as Parameters<typeof withMessage>[0];
    const once = withMessage(detail, message(2));
    expect(once?.messages.map((m) => m.id)).toEqual([1, 2]);
    expect(withMessage(once, message(2))?.messages.map((m) => m.id)).toEqual([1, 2]);
  });

  it("moves the conversation to the top of its tab with one more unread", () => {
    const row = (roomId: string, unreadCount: number) => ({
      id: roomId,
      roomId,
      room: { lastMessageAt: 1, status: "open" },
      lastMessage: { text: "old", createdAt: 1 },
      username: "+1",
      displayName: roomId,
      contactId: null,
      unread: unreadCount > 0,
      unreadCount,
    });
    const data = {
      pages: [{ success: true as const, rooms: [row("room-0", 0), row("room-1", 1)], totalRooms: 2 }],
      pageParams: [0],
    } as unknown as Parameters<typeof withListMessage>[0];
    const event = {
      type: "message" as const,
      roomId: "room-1",
      folder: "priority" as const,
      message: message(5, "new"),
    };
    const next = withListMessage(data, { folder: "priority", unread: false, archived: false }, event);
    expect(next?.pages[0]?.rooms.map((r) => [r.roomId, r.unreadCount, r.lastMessage?.text])).toEqual([
      ["room-1", 2, "new"],
      ["room-0", 0, "old"],
    ]);
    // The Junk tab loses it when it belongs to priority.
    const junk = withListMessage(data, { folder: "agent", unread: false, archived: false }, event);
    expect(junk?.pages[0]?.rooms.map((r) => r.roomId)).toEqual(["room-0"]);
  });
});
