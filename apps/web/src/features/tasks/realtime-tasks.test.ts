import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { applyRealtimeEvent } from "../inbox/api.ts";
import { TASKS_KEY } from "./api.ts";

describe("the realtime tasks event", () => {
  it("marks every task query stale (lists, counts, tasks) and leaves other features' queries alone", () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData([TASKS_KEY, 42, "owner", "lists"], { lists: [] });
    queryClient.setQueryData([TASKS_KEY, 42, "owner", "stats"], { stats: {} });
    queryClient.setQueryData(["contacts", 42], { contacts: [] });
    applyRealtimeEvent(queryClient, { type: "tasks", listId: 7 });
    const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(stale([TASKS_KEY, 42, "owner", "lists"])).toBe(true);
    expect(stale([TASKS_KEY, 42, "owner", "stats"])).toBe(true);
    expect(stale(["contacts", 42])).toBe(false);
  });
});
