import { describe, expect, it } from "vitest";
import {
  findTimezoneByName,
  findTimezoneByOffset,
  findTimezoneByUtc,
  findTimezoneByValue,
  parseUtcOffset,
  resolveTimezone,
  standardOffset,
  TIMEZONES,
  UTC_TIMEZONE,
} from "./timezones.ts";

describe("time-zone table", () => {
  it("covers the Windows zone list", () => {
    expect(TIMEZONES.length).toBeGreaterThanOrEqual(135);
    expect(new Set(TIMEZONES.map((entry) => entry.value)).size).toBe(TIMEZONES.length);
  });

  it("holds the classic Eastern entry", () => {
    const eastern = findTimezoneByValue("Eastern Standard Time");
    expect(eastern).toMatchObject({
      value: "Eastern Standard Time",
      abbr: "EDT",
      offset: -4,
      isdst: true,
      text: "(UTC-05:00) Eastern Time (US & Canada)",
    });
    expect(eastern?.utc[0]).toBe("America/Detroit");
    expect(eastern?.utc).toContain("America/New_York");
  });

  it("lists every IANA zone name once, all well formed", () => {
    const ids = TIMEZONES.flatMap((entry) => entry.utc);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z][A-Za-z0-9_+\-/]*$/);
  });

  it("keeps offsets consistent with the text: standard, or one hour more under daylight time", () => {
    for (const entry of TIMEZONES) {
      expect(entry.text).toMatch(/^\(UTC(?:[+-]\d{2}:\d{2})?\) \S/);
      expect(entry.utc.length).toBeGreaterThan(0);
      const shift = entry.offset - standardOffset(entry);
      const expected = entry.value === "Lord Howe Standard Time" ? 0.5 : 1;
      expect(shift).toBe(entry.isdst ? expected : 0);
    }
  });

  it("is ordered by standard offset", () => {
    const offsets = TIMEZONES.map(standardOffset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets[0]).toBe(-12);
    expect(offsets.at(-1)).toBe(14);
  });

  it("includes fractional offsets", () => {
    expect(findTimezoneByValue("India Standard Time")?.offset).toBe(5.5);
    expect(findTimezoneByValue("Nepal Standard Time")?.offset).toBe(5.75);
    expect(findTimezoneByValue("Newfoundland Standard Time")?.offset).toBe(-2.5);
  });
});

describe("lookups", () => {
  it("finds by IANA zone name, case-insensitive, legacy aliases included", () => {
    expect(findTimezoneByUtc("America/Chicago")?.value).toBe("Central Standard Time");
    expect(findTimezoneByUtc("europe/london")?.value).toBe("GMT Standard Time");
    expect(findTimezoneByUtc("Asia/Kolkata")?.value).toBe("India Standard Time");
    expect(findTimezoneByUtc("Asia/Calcutta")?.value).toBe("India Standard Time");
    expect(findTimezoneByUtc("US/Pacific")?.value).toBe("Pacific Standard Time");
    expect(findTimezoneByUtc("Mars/Olympus")).toBeUndefined();
  });

  it("finds by value and partial name", () => {
    expect(findTimezoneByValue("tokyo standard time")?.text).toBe("(UTC+09:00) Osaka, Sapporo, Tokyo");
    expect(findTimezoneByName("london")?.value).toBe("GMT Standard Time");
    expect(findTimezoneByName("Eastern Time")?.value).toBe("Eastern Standard Time");
    expect(findTimezoneByName("Singapore Standard")?.value).toBe("Singapore Standard Time");
    expect(findTimezoneByName("  ")).toBeUndefined();
  });

  it("finds by standard offset, preferring the main zone of the offset", () => {
    expect(findTimezoneByOffset(-5)?.value).toBe("Eastern Standard Time");
    expect(findTimezoneByOffset(-8)?.value).toBe("Pacific Standard Time");
    expect(findTimezoneByOffset(-10)?.value).toBe("Hawaiian Standard Time");
    expect(findTimezoneByOffset(0)?.value).toBe("UTC");
    expect(findTimezoneByOffset(5.5)?.value).toBe("India Standard Time");
    expect(findTimezoneByOffset(8.75)?.value).toBe("Aus Central W. Standard Time");
    expect(findTimezoneByOffset(7.25)).toBeUndefined();
  });

  it.each([
    ["-5", -5],
    ["+5.5", 5.5],
    ["5:30", 5.5],
    ["-0500", -5],
    ["UTC-05:00", -5],
    ["GMT+1", 1],
    ["utc+14", 14],
    ["-13", null],
    ["five", null],
    ["", null],
  ])("parses offset %j as %s", (text, expected) => {
    expect(parseUtcOffset(text)).toBe(expected);
  });
});

describe("resolveTimezone", () => {
  it.each([
    ["America/Detroit", "Eastern Standard Time"],
    ["Eastern Standard Time", "Eastern Standard Time"],
    ["UTC-11", "UTC-11"],
    ["Coordinated Universal Time+12", "UTC+12"],
    ["Paris", "Romance Standard Time"],
    ["-06:00", "Central Standard Time"],
    ["UTC+9", "Tokyo Standard Time"],
    ["UTC", "UTC"],
    ["Etc/UTC", "UTC"],
    ["Nowhere at all", "UTC"],
    ["", "UTC"],
  ])("%j -> %s", (input, value) => {
    expect(resolveTimezone(input).value).toBe(value);
  });

  it("resolves numbers as offsets and falls back to UTC", () => {
    expect(resolveTimezone(-7).value).toBe("Mountain Standard Time");
    expect(resolveTimezone(3.5).value).toBe("Iran Standard Time");
    expect(resolveTimezone(99)).toBe(UTC_TIMEZONE);
    expect(resolveTimezone(Number.NaN)).toBe(UTC_TIMEZONE);
    expect(resolveTimezone(null)).toBe(UTC_TIMEZONE);
    expect(resolveTimezone(undefined)).toBe(UTC_TIMEZONE);
  });
});
