import { describe, expect, it } from "vitest";
import { formatUsageDate, padUsageSeries, parseUsageDate } from "./usage-series.ts";

const zero = {
  number: 0,
  tokens: 0,
  voice: 0,
  advancedVoice: 0,
  "outbound-message": 0,
  "inbound-message": 0,
};

describe("padUsageSeries", () => {
  it("pads 30 days from the first date with zero buckets, keyed MM-DD-YYYY and sorted", () => {
    const series = padUsageSeries({
      "05-03-2024": { voice: 12 },
      "05-01-2024": { tokens: 100, "inbound-message": 2 },
    });
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ ...zero, date: "05-01-2024", tokens: 100, "inbound-message": 2 });
    expect(series[1]).toEqual({ ...zero, date: "05-02-2024" });
    expect(series[2]).toEqual({ ...zero, date: "05-03-2024", voice: 12 });
    expect(series[29]?.date).toBe("05-30-2024");
  });

  it("sorts by calendar date across years, not by text", () => {
    const series = padUsageSeries([
      { date: "01-02-2025", voice: 1 },
      { date: "12-20-2024", voice: 2 },
    ]);
    expect(series[0]?.date).toBe("12-20-2024");
    expect(series.map((point) => point.date)).toContain("01-02-2025");
    const dates = series.map((point) => parseUsageDate(point.date) ?? 0);
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(series).toHaveLength(30);
  });

  it("keeps days beyond the padding window and other fields", () => {
    const series = padUsageSeries({ "2024-02-01": { voice: 1, voiceCost: 0.5 }, "2024-03-15": { voice: 3 } });
    expect(series).toHaveLength(31);
    expect(series[0]).toMatchObject({ date: "02-01-2024", voice: 1, voiceCost: 0.5 });
    expect(series.at(-1)).toMatchObject({ date: "03-15-2024", voice: 3 });
  });

  it("adds up entries of the same day and drops unreadable dates", () => {
    const series = padUsageSeries({
      "2024-05-01": { voice: 1 },
      "05-01-2024": { voice: 2 },
      garbage: { voice: 9 },
    });
    expect(series[0]).toMatchObject({ date: "05-01-2024", voice: 3 });
    expect(series).toHaveLength(30);
  });

  it("crosses month ends and leap days", () => {
    const series = padUsageSeries({ "02-27-2024": {} });
    expect(series.slice(0, 4).map((point) => point.date)).toEqual([
      "02-27-2024",
      "02-28-2024",
      "02-29-2024",
      "03-01-2024",
    ]);
  });

  it("returns nothing for an empty series", () => {
    expect(padUsageSeries({})).toEqual([]);
    expect(padUsageSeries([])).toEqual([]);
  });
});

describe("usage dates", () => {
  it.each([
    ["05-01-2024", Date.UTC(2024, 4, 1)],
    ["2024-05-01", Date.UTC(2024, 4, 1)],
    ["2024-05-01T23:30:00Z", Date.UTC(2024, 4, 1)],
    ["02-30-2024", null],
    ["13-01-2024", null],
    ["May 1", null],
  ])("parses %j", (text, expected) => {
    expect(parseUsageDate(text)).toBe(expected);
  });

  it("formats MM-DD-YYYY", () => {
    expect(formatUsageDate(Date.UTC(2024, 0, 9))).toBe("01-09-2024");
  });
});
