/**
 * The one place the web app turns an instant into text people read (issue 32 item 10): every date and time
 * is shown in the account's time zone, with the zone's abbreviation ("CST") after a time when that zone is
 * not the browser's own. A guard test (time-format-guard.test.ts) keeps other files from formatting dates.
 */

/** How much of an instant is shown. */
export type TimeStyle =
  /** "Nov 28, 2026, 1:15 PM" */
  | "dateTime"
  /** "Nov 28, 2026, 1:15:45 PM" */
  | "dateTimeSeconds"
  /** "11/28/26, 1:15 PM" */
  | "shortDateTime"
  /** "11/28/26, 1:15:45 PM" */
  | "shortDateTimeSeconds"
  /** "Nov 28, 2026" */
  | "date"
  /** "1:15 PM" */
  | "time";

const STYLE_OPTIONS: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  dateTimeSeconds: { dateStyle: "medium", timeStyle: "medium" },
  shortDateTime: { dateStyle: "short", timeStyle: "short" },
  shortDateTimeSeconds: { dateStyle: "short", timeStyle: "medium" },
  date: { dateStyle: "medium" },
  time: { timeStyle: "short" },
};

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, options);
    formats.set(key, format);
  }
  return format;
}

/** The zone as Intl names it (`US/Central` is `America/Chicago`), or null when Intl does not know it. */
export function knownTimeZone(zone: string | null | undefined): string | null {
  if (!zone || typeof zone !== "string") return null;
  try {
    return formatOf(`zone|${zone}`, { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** This browser's zone (UTC when it names none). */
export function browserTimeZone(): string {
  try {
    return new Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** The zone's short name at an instant: "CST", "CDT", or "GMT+9" where the locale has no abbreviation. */
export function zoneAbbreviation(at: number, zone: string): string {
  const parts = formatOf(`abbr|${zone}`, { timeZone: zone, timeZoneName: "short" }).formatToParts(at);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? zone;
}

export type TimeZones = {
  /** The account's zone: null (or one Intl does not know) means the browser's. */
  account: string | null | undefined;
  /** The browser's zone (default: this browser's). */
  browser?: string | undefined;
};

/** The zone dates and times are shown in: the account's when Intl knows it, else the browser's. */
export function displayTimeZone(zones: TimeZones): string {
  return knownTimeZone(zones.account) ?? knownTimeZone(zones.browser) ?? browserTimeZone();
}

/**
 * An instant (ms, Date or ISO text) as people read it, in the account's zone; a time is followed by the
 * zone's abbreviation when that zone is not the browser's. Text that is no date is answered as it is.
 */
export function formatInstant(at: number | Date | string, style: TimeStyle, zones: TimeZones): string {
  const ms = typeof at === "string" ? Date.parse(at) : typeof at === "number" ? at : at.getTime();
  if (Number.isNaN(ms)) return typeof at === "string" ? at : "—";
  const zone = displayTimeZone(zones);
  const text = formatOf(`${style}|${zone}`, { ...STYLE_OPTIONS[style], timeZone: zone }).format(ms);
  if (style === "date") return text;
  const browser = knownTimeZone(zones.browser) ?? browserTimeZone();
  return zone === browser ? text : `${text} ${zoneAbbreviation(ms, zone)}`;
}

/**
 * A calendar day (`YYYY-MM-DD`, or the UTC day of an instant: billing periods and usage days are whole UTC
 * days, not moments) as "Nov 28, 2026" — the same day in every zone. `withYear: false` gives "Nov 28",
 * `month: "long"` "November 28, 2026".
 */
export function formatCalendarDay(
  day: string | number,
  options: { withYear?: boolean; month?: "short" | "long" } = {},
): string {
  const ms = typeof day === "number" ? day : Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms)) return String(day);
  const withYear = options.withYear ?? true;
  const month = options.month ?? "short";
  return formatOf(`day|${withYear}|${month}`, {
    timeZone: "UTC",
    month,
    day: "numeric",
    ...(withYear ? { year: "numeric" } : {}),
  }).format(ms);
}

/**
 * A time in a zone of its own (a booking in the zone it was booked in), always with that zone's long name
 * available separately: `{ day, time, zoneName }`.
 */
export function formatInOwnZone(at: number, zone: string | null | undefined) {
  const own = knownTimeZone(zone) ?? browserTimeZone();
  return {
    day: formatOf(`own-day|${own}`, {
      weekday: "long",
      month: "long",
      day: "numeric",
      timeZone: own,
    }).format(at),
    time: formatOf(`own-time|${own}`, { hour: "numeric", minute: "2-digit", timeZone: own }).format(at),
    zoneName:
      formatOf(`own-zone|${own}`, { timeZoneName: "long", timeZone: own })
        .formatToParts(at)
        .find((part) => part.type === "timeZoneName")?.value ?? own,
  };
}
