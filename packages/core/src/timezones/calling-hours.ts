/**
 * Calling hours: the part of each day, in a person's own time zone, when an outbound task may call or text
 * them (tasks; default 09:00-20:00).
 */
import { instantOf, wallTimeOf } from "./zoned-time.ts";

/** Start and end of the calling window, "HH:MM" on a 24-hour clock; the end is excluded. */
export type CallingHours = { start: string; end: string };

export const DEFAULT_CALLING_HOURS: CallingHours = { start: "09:00", end: "20:00" };

/** Minutes after midnight of "HH:MM", or null when it is not a time of day. */
export function clockMinutes(clock: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(clock.trim());
  if (!match) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Are these calling hours usable: both times valid and the start before the end? */
export function validCallingHours(hours: CallingHours): boolean {
  const start = clockMinutes(hours.start);
  const end = clockMinutes(hours.end);
  return start !== null && end !== null && start < end;
}

/** The day after a calendar day (year, month 1-12, day). */
function nextDay(wall: { year: number; month: number; day: number }) {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + 1));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/**
 * The first instant at or after `instant` that lies within the calling hours in `timeZone`: `instant`
 * itself when it does, else the next opening (today's, or tomorrow's after the end).
 */
export function nextCallingTime(instant: number, timeZone: string, hours: CallingHours): number {
  const start = clockMinutes(hours.start) ?? 0;
  const end = clockMinutes(hours.end) ?? 24 * 60;
  const wall = wallTimeOf(instant, timeZone);
  const minutes = wall.hour * 60 + wall.minute;
  if (minutes >= start && minutes < end) return instant;
  const day = minutes < start ? wall : nextDay(wall);
  const opening = instantOf(
    { year: day.year, month: day.month, day: day.day, hour: Math.floor(start / 60), minute: start % 60 },
    timeZone,
  );
  // A clock change can put the computed opening before `instant`: never answer the past.
  return Math.max(opening, instant);
}

/** Is `instant` within the calling hours in `timeZone`? */
export function withinCallingHours(instant: number, timeZone: string, hours: CallingHours): boolean {
  return nextCallingTime(instant, timeZone, hours) === instant;
}

/** The instant the day of `instant` began in `timeZone` (its local midnight), and when the next one begins. */
export function dayBoundsIn(instant: number, timeZone: string): { start: number; end: number } {
  const wall = wallTimeOf(instant, timeZone);
  const start = instantOf(
    { year: wall.year, month: wall.month, day: wall.day, hour: 0, minute: 0 },
    timeZone,
  );
  const next = nextDay(wall);
  const end = instantOf({ ...next, hour: 0, minute: 0 }, timeZone);
  return { start, end };
}
