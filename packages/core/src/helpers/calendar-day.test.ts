import { describe, expect, it } from "vitest";
import { parseIsoDay, utcDay } from "./calendar-day.ts";

describe("calendar days", () => {
  it.each([
    [2024, 2, 29, Date.UTC(2024, 1, 29)],
    [2023, 2, 29, null],
    [2024, 4, 31, null],
    [2024, 13, 1, null],
    [2024, 1, 0, null],
  ])("%d-%d-%d -> %s", (year, month, day, expected) => {
    expect(utcDay(year, month, day)).toBe(expected);
  });

  it.each([
    ["2024-05-01", Date.UTC(2024, 4, 1)],
    [" 2024-05-01 ", Date.UTC(2024, 4, 1)],
    ["2024-02-30", null],
    ["2024-5-1", null],
    ["2024-05-01T00:00:00Z", null],
  ])("parses %j", (text, expected) => {
    expect(parseIsoDay(text)).toBe(expected);
  });
});
