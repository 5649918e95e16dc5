import { DAY_MS } from "../constants.ts";

/**
 * Relative date ranges of the log filters (product spec §5.2): last N day, week, month or year, resolved
 * against a supplied `now` (epoch ms, UTC calendar arithmetic). Nothing here reads the clock.
 */

export const RELATIVE_DATE_UNITS = ["day", "week", "month", "year"] as const;
export type RelativeDateUnit = (typeof RELATIVE_DATE_UNITS)[number];
export type RelativeDate = { amount: number; unit: RelativeDateUnit };
export type DateRange = { start: number; end: number };

const RELATIVE = /^(?:(?:last|next)[\s_-]*)?(\d{1,6})[\s_-]*(day|week|month|year)s?$/i;

/**
 * Reads a relative amount: `"7 day"`, `"7 days"`, `"last 3 months"`, `"1_year"`, `{ amount, unit }`, or a bare
 * number of days. The amount is a whole number of at least 1; anything else is null.
 */
export function parseRelativeDate(value: unknown): RelativeDate | null {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 1 ? { amount: value, unit: "day" } : null;
  }
  if (typeof value === "object" && value !== null && "amount" in value && "unit" in value) {
    const { amount, unit } = value as { amount: unknown; unit: unknown };
    const ok =
      typeof amount === "number" &&
      Number.isInteger(amount) &&
      amount >= 1 &&
      (RELATIVE_DATE_UNITS as readonly unknown[]).includes(unit);
    return ok ? { amount, unit: unit as RelativeDateUnit } : null;
  }
  if (typeof value !== "string") return null;
  const match = RELATIVE.exec(value.trim());
  if (!match) return null;
  const amount = Number(match[1]);
  return amount >= 1 ? { amount, unit: (match[2] as string).toLowerCase() as RelativeDateUnit } : null;
}

/** Canonical text of a relative amount, `7 day`. */
export function formatRelativeDate({ amount, unit }: RelativeDate): string {
  return `${amount} ${unit}`;
}

/** `ms` moved by a signed number of units; months and years keep the day of month, clamped to the month's end. */
export function shiftDate(ms: number, amount: number, unit: RelativeDateUnit): number {
  if (unit === "day") return ms + amount * DAY_MS;
  if (unit === "week") return ms + amount * 7 * DAY_MS;
  const date = new Date(ms);
  const months = unit === "month" ? amount : amount * 12;
  const firstOfTarget = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const year = firstOfTarget.getUTCFullYear();
  const month = firstOfTarget.getUTCMonth();
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(date.getUTCDate(), lastDay),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds(),
  );
}

/** The last N units up to `now`: `[now - N units, now]`. */
export function lastRange(relative: RelativeDate, now: number): DateRange {
  return { start: shiftDate(now, -relative.amount, relative.unit), end: now };
}

/** The next N units from `now`: `[now, now + N units]`. */
export function nextRange(relative: RelativeDate, now: number): DateRange {
  return { start: now, end: shiftDate(now, relative.amount, relative.unit) };
}
