import { describe, expect, it } from "vitest";
import { formatCell, formatDateValue } from "./log-format.ts";

const inZone = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone }).format(ms);

describe("dates and times of the Calls table", () => {
  it("shows a booked appointment time in the account's zone, with its abbreviation when not the browser's", () => {
    const booked = "2026-12-01T10:00:00-08:00";
    // The tests run in UTC: Los Angeles is another zone, so its abbreviation follows the time.
    expect(formatDateValue(booked, "America/Los_Angeles")).toBe(
      `${inZone(Date.parse(booked), "America/Los_Angeles")} PST`,
    );
    expect(formatDateValue(booked, "America/Los_Angeles")).toMatch(/10:00/);
    expect(formatDateValue(booked)).toBe(inZone(Date.parse(booked), "UTC"));
  });

  it("shows the call's timestamp in the account's zone, a calendar day as a day, other text as it is", () => {
    const timestamp = "2026-11-24T18:30:00.000Z";
    expect(formatCell("timestamp", timestamp, { timeZone: "America/New_York" })).toBe(
      `${inZone(Date.parse(timestamp), "America/New_York")} EST`,
    );
    expect(formatCell("visitDate", "2026-03-04", { type: "date" })).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(
        Date.UTC(2026, 2, 4),
      ),
    );
    expect(formatCell("appointmentTime", "soon", { type: "date" })).toBe("soon");
    expect(formatCell("appointmentTime", "2026-12-01T10:00:00-08:00", { type: "string" })).toBe(
      "2026-12-01T10:00:00-08:00",
    );
  });
});
