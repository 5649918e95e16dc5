import { describe, expect, it } from "vitest";
import { pluralize } from "./pluralize.ts";

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
