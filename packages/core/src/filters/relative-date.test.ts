import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRelativeDate, lastRange, nextRange, parseRelativeDate, shiftDate } from "./relative-date.ts";

const NOW = Date.UTC(2024, 2, 31, 12, 0, 0); // 2024-03-31T12:00Z

describe("parseRelativeDate", () => {
  it.each([
    ["7 day", { amount: 7, unit: "day" }],
    ["7 days", { amount: 7, unit: "day" }],
    ["last 2 weeks", { amount: 2, unit: "week" }],
    ["Last_3_Months", { amount: 3, unit: "month" }],
    ["1 year", { amount: 1, unit: "year" }],
    ["next 5 days", { amount: 5, unit: "day" }],
    [30, { amount: 30, unit: "day" }],
    [
      { amount: 2, unit: "month" },
      { amount: 2, unit: "month" },
    ],
  ])("reads %j", (input, expected) => {
    expect(parseRelativeDate(input)).toEqual(expected);
  });

  it.each([
    "",
    "0 days",
    "-1 day",
    "7 fortnights",
    "seven days",
    "1.5 days",
    0,
    2.5,
    null,
    { amount: 1, unit: "hour" },
  ])("rejects %j", (input) => {
    expect(parseRelativeDate(input)).toBeNull();
  });

  it("formats canonically", () => {
    expect(formatRelativeDate({ amount: 3, unit: "week" })).toBe("3 week");
  });
});

describe("ranges against a supplied now", () => {
  it.each([
    [{ amount: 1, unit: "day" }, Date.UTC(2024, 2, 30, 12)],
    [{ amount: 2, unit: "week" }, Date.UTC(2024, 2, 17, 12)],
    [{ amount: 1, unit: "month" }, Date.UTC(2024, 1, 29, 12)],
    [{ amount: 13, unit: "month" }, Date.UTC(2023, 1, 28, 12)],
    [{ amount: 1, unit: "year" }, Date.UTC(2023, 2, 31, 12)],
  ] as const)("last %j starts at the right instant", (relative, start) => {
    expect(lastRange(relative, NOW)).toEqual({ start, end: NOW });
  });

  it("next runs forward from now", () => {
    expect(nextRange({ amount: 1, unit: "month" }, Date.UTC(2024, 0, 31))).toEqual({
      start: Date.UTC(2024, 0, 31),
      end: Date.UTC(2024, 1, 29),
    });
  });

  it("never ends before it starts", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom("day", "week", "month", "year" as const),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (amount, unit, now) => {
          const last = lastRange({ amount, unit }, now);
          const next = nextRange({ amount, unit }, now);
          expect(last.start).toBeLessThan(last.end);
          expect(next.end).toBeGreaterThan(next.start);
        },
      ),
    );
  });

  it("shifts days exactly", () => {
    expect(shiftDate(0, 3, "day")).toBe(3 * 86_400_000);
  });
});
