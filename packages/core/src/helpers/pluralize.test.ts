import { describe, expect, it } from "vitest";
import { countOf, pluralize } from "./pluralize.ts";

describe("pluralize", () => {
  it.each([
    [1, "agent", undefined, "agent"],
    [0, "agent", undefined, "agents"],
    [2, "agent", undefined, "agents"],
    [-1, "agent", undefined, "agents"],
    [1.5, "minute", undefined, "minutes"],
    [1, "person", "people", "person"],
    [3, "person", "people", "people"],
  ])("%d %s (%s) -> %s", (count, singular, plural, expected) => {
    expect(pluralize(count, singular, plural)).toBe(expected);
  });
});

describe("countOf", () => {
  it("says a count with its word in the right number", () => {
    expect(countOf(1, "row")).toBe("1 row");
    expect(countOf(0, "row")).toBe("0 rows");
    expect(countOf(1200, "row")).toBe("1,200 rows");
    expect(countOf(2, "person", "people")).toBe("2 people");
  });
});
