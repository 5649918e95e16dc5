import { describe, expect, it } from "vitest";
import {
  displayTimeZone,
  formatCalendarDay,
  formatInstant,
  knownTimeZone,
  zoneAbbreviation,
} from "./time-format.ts";
import { accountTimeZone } from "./use-time-format.ts";

// 2026-11-28 19:15:45 UTC: 1:15:45 PM in Chicago (CST), 11:15:45 AM in Los Angeles (PST).
const CALL = Date.UTC(2026, 10, 28, 19, 15, 45);
const CHICAGO = "America/Chicago";
const LOS_ANGELES = "America/Los_Angeles";

describe("formatInstant: the account's zone, its abbreviation only where it is not the browser's", () => {
  it("shows the time in the account's zone with its abbreviation when the browser is elsewhere", () => {
    const text = formatInstant(CALL, "dateTime", { account: LOS_ANGELES, browser: CHICAGO });
    expect(text).toMatch(/Nov 28, 2026.*11:15\sAM PST$/);
  });

  it("shows no abbreviation when the account's zone is the browser's", () => {
    expect(formatInstant(CALL, "time", { account: CHICAGO, browser: CHICAGO })).toMatch(/^1:15\sPM$/);
    // The same zone under another of its names is still the browser's.
    expect(formatInstant(CALL, "time", { account: "US/Central", browser: CHICAGO })).toMatch(/^1:15\sPM$/);
  });

  it("reads the same instant the same way in every style: a call and its transcript agree", () => {
    const zones = { account: LOS_ANGELES, browser: CHICAGO };
    expect(formatInstant(CALL, "time", zones)).toMatch(/^11:15\sAM PST$/);
    expect(formatInstant(new Date(CALL), "dateTimeSeconds", zones)).toMatch(/11:15:45\sAM PST$/);
    expect(formatInstant(new Date(CALL).toISOString(), "shortDateTime", zones)).toMatch(/11:15\sAM PST$/);
    expect(formatInstant(CALL, "date", zones)).toBe("Nov 28, 2026");
  });

  it("falls back to the browser's zone, without an abbreviation, for a missing or unknown account zone", () => {
    for (const account of [null, undefined, "", "Mars/Olympus_Mons"]) {
      expect(formatInstant(CALL, "time", { account, browser: CHICAGO })).toMatch(/^1:15\sPM$/);
      expect(displayTimeZone({ account, browser: CHICAGO })).toBe(CHICAGO);
    }
    expect(knownTimeZone("Mars/Olympus_Mons")).toBeNull();
  });

  it("answers text that is no date as it is", () => {
    expect(formatInstant("soon", "dateTime", { account: CHICAGO })).toBe("soon");
  });

  it("abbreviates a zone for the instant (daylight saving time included)", () => {
    expect(zoneAbbreviation(CALL, CHICAGO)).toBe("CST");
    expect(zoneAbbreviation(Date.UTC(2026, 6, 1, 12), CHICAGO)).toBe("CDT");
  });
});

describe("formatCalendarDay: a day is the same day everywhere", () => {
  it("formats a YYYY-MM-DD day and the UTC day of an instant", () => {
    expect(formatCalendarDay("2026-03-04")).toBe("Mar 4, 2026");
    expect(formatCalendarDay(Date.UTC(2026, 10, 27), { withYear: false })).toBe("Nov 27");
    expect(formatCalendarDay(Date.UTC(2026, 10, 27), { month: "long" })).toBe("November 27, 2026");
  });
});

describe("accountTimeZone: the zone the account in view reads in, else the person's own account's", () => {
  const account = (timeZone?: unknown) => ({ settings: timeZone === undefined ? {} : { timeZone } });
  it("prefers the account in view, then the home account, and ignores zones Intl does not know", () => {
    expect(accountTimeZone({ account: account(LOS_ANGELES), homeAccount: account(CHICAGO) } as never)).toBe(
      LOS_ANGELES,
    );
    expect(accountTimeZone({ account: account(), homeAccount: account(CHICAGO) } as never)).toBe(CHICAGO);
    expect(accountTimeZone({ account: account("nowhere"), homeAccount: null } as never)).toBeNull();
    expect(accountTimeZone({ account: account(42), homeAccount: null } as never)).toBeNull();
    expect(accountTimeZone(null)).toBeNull();
  });

  it("reads an agent viewed by a partner in the organisation's zone the server answers, not the partner's", () => {
    // The agent has no zone of its own; its organisation is in Los Angeles, the partner in New York.
    const partnerViewsAgent = {
      account: { accountType: "agent", settings: {} },
      homeAccount: { accountType: "partner", settings: { timeZone: "America/New_York" } },
      timeZone: LOS_ANGELES,
    };
    expect(accountTimeZone(partnerViewsAgent as never)).toBe(LOS_ANGELES);
    // With no zone above the account either, the partner's own is the one left.
    expect(accountTimeZone({ ...partnerViewsAgent, timeZone: null } as never)).toBe("America/New_York");
    // A zone Intl does not know is passed over.
    expect(accountTimeZone({ ...partnerViewsAgent, timeZone: "Mars/Olympus" } as never)).toBe(
      "America/New_York",
    );
  });
});
