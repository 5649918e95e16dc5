import { describe, expect, it } from "vitest";
import { formatCell, formatDateValue } from "./log-format.ts";

const inZone = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone }).format(ms);

describe("dates and times of the Calls table", () => {
  it("shows a booked appointment time at its wall-clock time, in the agent's zone when known", () => {
    const booked = "2026-12-01T10:00:00-08:00";
    const instant = Date.parse(booked);
    expect(formatDateValue(booked, "America/Los_Angeles")).toBe(inZone(instant, "America/Los_Angeles"));
    expect(formatDateValue(booked)).toBe(inZone(instant, "America/Los_Angeles"));
    expect(formatDateValue(booked)).toMatch(/10:00/);
    expect(formatDateValue(booked)).not.toContain("T10");
  });

  it("shows the call's timestamp in its agent's zone, a calendar day as a day, other text as it is", () => {
    const timestamp = "2026-11-24T18:30:00.000Z";
    expect(formatCell("timestamp", timestamp, { timeZone: "America/New_York" })).toBe(
      inZone(Date.parse(timestamp), "America/New_York"),
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
