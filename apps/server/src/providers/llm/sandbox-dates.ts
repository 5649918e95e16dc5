import { instantOf, isoInZone, wallTimeOf } from "@switchboard/core";

/**
 * The sandbox model's reading of dates and times in what a caller says: "tomorrow at 3pm", "on Friday at
 * 10:30", "May 21 at 2 pm", "2024-05-21 15:00", "next Tuesday morning". Deterministic and relative to the
 * conversation's current date in the agent's time zone.
 */

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

export type CalendarDay = { year: number; month: number; day: number };
export type ClockTime = { hour: number; minute: number };

const pad = (n: number) => String(n).padStart(2, "0");
export const dayText = (d: CalendarDay) => `${d.year}-${pad(d.month)}-${pad(d.day)}`;

function addDays(day: CalendarDay, days: number): CalendarDay {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function weekdayOf(day: CalendarDay): number {
  return new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
}

function validDay(year: number, month: number, day: number): CalendarDay | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return { year, month, day };
}

const monthIndex = (word: string) => MONTHS.findIndex((m) => m === word || m.slice(0, 3) === word);

/** A day named in the text, relative to `today` (days in the past roll to next week or next year). */
export function extractDay(text: string, today: CalendarDay): CalendarDay | null {
  const t = text.toLowerCase();
  const iso = t.match(/\b(\d{4})-(\d{2})-(\d{2})\b/);
  if (iso) return validDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (/\bday after tomorrow\b/.test(t)) return addDays(today, 2);
  if (/\btomorrow\b/.test(t)) return addDays(today, 1);
  if (/\b(today|tonight|this (morning|afternoon|evening))\b/.test(t)) return today;
  const monthFirst = t.match(
    /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b/,
  );
  const dayFirst = t.match(
    /\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/,
  );
  const named = monthFirst
    ? { month: monthIndex((monthFirst[1] ?? "").slice(0, 3)) + 1, day: Number(monthFirst[2]) }
    : dayFirst
      ? { month: monthIndex((dayFirst[2] ?? "").slice(0, 3)) + 1, day: Number(dayFirst[1]) }
      : null;
  if (named && named.month > 0) {
    const thisYear = validDay(today.year, named.month, named.day);
    if (!thisYear) return null;
    return dayText(thisYear) < dayText(today) ? validDay(today.year + 1, named.month, named.day) : thisYear;
  }
  const slash = t.match(/\b(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?\b/);
  if (slash) {
    const year = slash[3] ? Number(slash[3].length === 2 ? `20${slash[3]}` : slash[3]) : today.year;
    return validDay(year, Number(slash[1]), Number(slash[2]));
  }
  const weekday = t.match(/\b(next\s+)?(sun|mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?)(?:day)?\b/);
  if (weekday) {
    const target = WEEKDAYS.findIndex((w) => w.startsWith((weekday[2] ?? "").slice(0, 3)));
    let ahead = (target - weekdayOf(today) + 7) % 7;
    if (ahead === 0) ahead = 7;
    return addDays(today, ahead);
  }
  return null;
}

/** A clock time named in the text: "3pm", "3:30 pm", "15:00", "at 10", "noon", "in the morning". */
export function extractTime(text: string): ClockTime | null {
  const t = text.toLowerCase();
  if (/\bnoon\b|\bmidday\b/.test(t)) return { hour: 12, minute: 0 };
  const ampm = t.match(/\b(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)(?![a-z])/);
  if (ampm) {
    let hour = Number(ampm[1]);
    const minute = Number(ampm[2] ?? 0);
    if (hour < 1 || hour > 12 || minute > 59) return null;
    const pm = (ampm[3] ?? "").startsWith("p");
    if (hour === 12) hour = pm ? 12 : 0;
    else if (pm) hour += 12;
    return { hour, minute };
  }
  const clock = t.match(/\b([01]?\d|2[0-3]):([0-5]\d)\b/);
  if (clock) return { hour: Number(clock[1]), minute: Number(clock[2]) };
  const at = t.match(
    /\bat\s+(\d{1,2})(?:\s*o'?clock)?\b(?!\s*(?:\/|-|st|nd|rd|th|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/,
  );
  if (at) {
    const hour = Number(at[1]);
    if (hour >= 1 && hour <= 12) return { hour: hour < 8 ? hour + 12 : hour, minute: 0 };
    if (hour > 12 && hour <= 23) return { hour, minute: 0 };
  }
  if (/\bmorning\b/.test(t)) return { hour: 9, minute: 0 };
  if (/\bafternoon\b/.test(t)) return { hour: 14, minute: 0 };
  if (/\bevening\b|\btonight\b/.test(t)) return { hour: 18, minute: 0 };
  return null;
}

/** Today in the zone at `now`. */
export function todayIn(now: number, timeZone: string): CalendarDay {
  const wall = wallTimeOf(now, timeZone);
  return { year: wall.year, month: wall.month, day: wall.day };
}

/** `2024-05-21T15:00:00-07:00` for a day and time in the zone. */
export function startIso(day: CalendarDay, time: ClockTime, timeZone: string): string {
  return isoInZone(instantOf({ ...day, ...time }, timeZone), timeZone);
}
