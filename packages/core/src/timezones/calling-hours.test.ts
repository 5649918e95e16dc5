import { describe, expect, it } from "vitest";
import { dayBoundsIn, nextCallingTime, validCallingHours, withinCallingHours } from "./calling-hours.ts";

const hours = { start: "09:00", end: "20:00" };
const at = (iso: string) => Date.parse(iso);

describe("calling hours in the person's time zone", () => {
  it("answers the instant itself inside the window", () => {
    // 10:30 in New York (EST, UTC-5).
    const instant = at("2026-11-24T15:30:00Z");
    expect(nextCallingTime(instant, "America/New_York", hours)).toBe(instant);
    expect(withinCallingHours(instant, "America/New_York", hours)).toBe(true);
  });

  it("waits for today's opening before it, and tomorrow's after the end", () => {
    // 06:00 in Los Angeles (UTC-8) -> 09:00 the same day.
    expect(nextCallingTime(at("2026-11-24T14:00:00Z"), "America/Los_Angeles", hours)).toBe(
      at("2026-11-24T17:00:00Z"),
    );
    // 20:00 exactly in New York is closed -> 09:00 the next day.
    expect(nextCallingTime(at("2026-11-25T01:00:00Z"), "America/New_York", hours)).toBe(
      at("2026-11-25T14:00:00Z"),
    );
    // 23:30 on the last day of the month in Tokyo (UTC+9) -> 09:00 on the 1st.
    expect(nextCallingTime(at("2026-11-30T14:30:00Z"), "Asia/Tokyo", hours)).toBe(at("2026-12-01T00:00:00Z"));
  });

  it("follows daylight saving time", () => {
    // 2026-03-08 is the spring change in the US: 08:00 EDT (UTC-4) -> 09:00 EDT = 13:00Z.
    expect(nextCallingTime(at("2026-03-08T12:00:00Z"), "America/New_York", hours)).toBe(
      at("2026-03-08T13:00:00Z"),
    );
  });

  it("checks the window and gives local day bounds", () => {
    expect(validCallingHours({ start: "09:00", end: "20:00" })).toBe(true);
    expect(validCallingHours({ start: "20:00", end: "09:00" })).toBe(false);
    expect(validCallingHours({ start: "9", end: "20:00" })).toBe(false);
    expect(dayBoundsIn(at("2026-11-24T03:00:00Z"), "America/New_York")).toEqual({
      start: at("2026-11-23T05:00:00Z"),
      end: at("2026-11-24T05:00:00Z"),
    });
  });
});
