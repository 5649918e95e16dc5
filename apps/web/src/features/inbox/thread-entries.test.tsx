import { describe, expect, it } from "vitest";
import type { InboxMessage } from "./api.ts";
import { threadEntries } from "./thread-entries.tsx";

const message = (id: number, callUuid: string | null = null): InboxMessage => ({
  id,
  roomId: "room",
  role: id % 2 ? "assistant" : "user",
  text: `m${id}`,
  media: [],
  senderUserId: null,
  senderName: null,
  senderAddress: null,
  status: "complete",
  error: null,
  deliveryStatus: null,
  reactions: [],
  createdAt: id,
  callUuid,
});

describe("threadEntries", () => {
  it("keeps texts as messages and each call's lines together, in order", () => {
    const entries = threadEntries([
      message(1),
      message(2, "call-a"),
      message(3, "call-a"),
      message(4),
      message(5, "call-b"),
    ]);
    expect(
      entries.map((e) => (e.kind === "call" ? [e.uuid, e.messages.map((m) => m.id)] : e.message.id)),
    ).toEqual([1, ["call-a", [2, 3]], 4, ["call-b", [5]]]);
  });

  it("reads a message without callUuid (a realtime text) as a text", () => {
    const { callUuid: _none, ...text } = message(7);
    expect(threadEntries([text])).toEqual([{ kind: "message", message: text }]);
  });
});
