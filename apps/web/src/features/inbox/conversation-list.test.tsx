import { act, screen } from "@testing-library/react";
import { useState } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render.tsx";
import { useConversations } from "./api.ts";
import { ConversationList } from "./conversation-list.tsx";

vi.mock("./api.ts", () => ({ useConversations: vi.fn() }));

/** jsdom has no IntersectionObserver: this one reports what the test says. */
class FakeObserver {
  static all: FakeObserver[] = [];
  target: Element | null = null;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.target = target;
  }
  unobserve() {}
  disconnect() {
    this.target = null;
  }
  takeRecords() {
    return [];
  }
  report(isIntersecting: boolean) {
    const entry = { isIntersecting, target: this.target } as IntersectionObserverEntry;
    act(() => this.callback([entry], this as unknown as IntersectionObserver));
  }
}

const room = (n: number) => ({
  roomId: `room-${n}`,
  displayName: `Caller ${n}`,
  unread: false,
  unreadCount: 0,
  room: { status: "open" },
  lastMessage: { text: `Hello ${n}` },
});
const page = (from: number) => ({ rooms: Array.from({ length: 20 }, (_, i) => room(from + i)) });

/** What the mocked `useConversations` answers; `rerender` renders the list again after a change. */
let list: Record<string, unknown> = {};
let rerender = () => {};

function Harness() {
  const [, setTick] = useState(0);
  rerender = () => act(() => setTick((tick) => tick + 1));
  return (
    <ConversationList folder="priority" unread={false} active={null} highlightId={null} onSelect={() => {}} />
  );
}

describe("the conversation list's next page", () => {
  const fetchNextPage = vi.fn();

  beforeEach(() => {
    FakeObserver.all = [];
    fetchNextPage.mockReset();
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    list = {
      isPending: false,
      isError: false,
      data: { pages: [page(0)] },
      hasNextPage: true,
      isFetchingNextPage: false,
      fetchNextPage,
    };
    vi.mocked(useConversations).mockImplementation(() => list as never);
  });

  const observer = () => FakeObserver.all.findLast((one) => one.target !== null) as FakeObserver;

  it("loads when the list's end comes within 400 px of the viewport, once per page", () => {
    renderAt("/", <Harness />);
    expect(screen.getAllByRole("listitem")).toHaveLength(20);
    expect(observer().options?.rootMargin).toBe("0px 0px 400px 0px");

    observer().report(false);
    expect(fetchNextPage).not.toHaveBeenCalled();
    observer().report(true);
    expect(fetchNextPage).toHaveBeenCalledTimes(1);

    // While the page loads, nothing more is asked for.
    list = { ...list, isFetchingNextPage: true };
    rerender();
    observer().report(true);
    expect(fetchNextPage).toHaveBeenCalledTimes(1);

    // The page arrived: the end seen before it no longer counts, only where the end is now.
    list = { ...list, isFetchingNextPage: false, data: { pages: [page(0), page(20)] } };
    rerender();
    expect(screen.getAllByRole("listitem")).toHaveLength(40);
    expect(fetchNextPage).toHaveBeenCalledTimes(1);
    observer().report(false);
    expect(fetchNextPage).toHaveBeenCalledTimes(1);
    observer().report(true);
    expect(fetchNextPage).toHaveBeenCalledTimes(2);
  });

  it("asks for nothing when there is no next page", () => {
    list = { ...list, hasNextPage: false };
    renderAt("/", <Harness />);
    observer().report(true);
    expect(fetchNextPage).not.toHaveBeenCalled();
  });
});
