import { describe, expect, it } from "vitest";
import { orderFavorites } from "./favorites.ts";

const agents = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id, name: `Agent ${id}` }));
const ids = (list: Array<{ id: number }>) => list.map((agent) => agent.id);

describe("orderFavorites", () => {
  it("puts saved favourites first in saved order, appends the rest, keeps five", () => {
    expect(ids(orderFavorites(agents, [6, 2]))).toEqual([6, 2, 1, 3, 4]);
  });

  it("matches ids saved as strings and ignores unknown or repeated ids", () => {
    expect(ids(orderFavorites(agents, ["7", 99, "7", 3]))).toEqual([7, 3, 1, 2, 4]);
  });

  it("without favourites keeps the given order", () => {
    expect(ids(orderFavorites(agents, undefined))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(orderFavorites(agents.slice(0, 2), []))).toEqual([1, 2]);
  });

  it("takes a custom id accessor and limit", () => {
    const rows = [{ key: "a" }, { key: "b" }, { key: "c" }];
    expect(orderFavorites(rows, ["c"], (row) => row.key, 2)).toEqual([{ key: "c" }, { key: "a" }]);
  });
});
