import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "./providers.tsx";

/** A list on a "server": each load reads it when it starts and answers after `delay` ms, or when aborted. */
function serverList(delay: number) {
  const state = { items: ["a"], loads: 0, aborts: 0 };
  const load = ({ signal }: { signal: AbortSignal }) => {
    state.loads += 1;
    const read = [...state.items];
    return new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => resolve(read), delay);
      signal.addEventListener("abort", () => {
        state.aborts += 1;
        clearTimeout(timer);
        reject(new Error("aborted"));
      });
    });
  };
  return { state, load };
}

describe("the app's query client", () => {
  it("after an invalidation during a load, shows the change without aborting the load", async () => {
    const client = createQueryClient();
    const server = serverList(30);
    const observer = new QueryObserver(client, { queryKey: ["list"], queryFn: server.load });
    const unsubscribe = observer.subscribe(() => {});
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(observer.getCurrentResult().fetchStatus).toBe("fetching");

    // A save while the first load is in flight: the load read the list before the change.
    server.state.items.push("b");
    await client.invalidateQueries({ queryKey: ["list"] });

    expect(observer.getCurrentResult().data).toEqual(["a", "b"]);
    expect(server.state.aborts).toBe(0);
    expect(server.state.loads).toBe(2);
    unsubscribe();
  });

  it("loads once for an invalidation when nothing is in flight", async () => {
    const client = createQueryClient();
    const server = serverList(5);
    const observer = new QueryObserver(client, { queryKey: ["list"], queryFn: server.load });
    const unsubscribe = observer.subscribe(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.state.items.push("b");
    await client.invalidateQueries({ queryKey: ["list"] });
    expect(observer.getCurrentResult().data).toEqual(["a", "b"]);
    expect(server.state.loads).toBe(2);
    unsubscribe();
  });
});
