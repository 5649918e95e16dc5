/**
 * Wall-clock time in an IANA time zone, without a date library: the zone's offset comes from Intl.
 */

export type WallTime = { year: number; month: number; day: number; hour: number; minute: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Is this a time zone Intl knows? */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time of an instant in a zone. */
export function wallTimeOf(instant: number, timeZone: string): WallTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at an instant, in minutes (e.g. -420 for UTC-07:00). */
export function offsetMinutesAt(instant: number, timeZone: string): number {
  const wall = wallTimeOf(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The instant of a wall-clock time in a zone (the earlier one when the clock repeats). */
export function instantOf(wall: WallTime, timeZone: string): number {
  const guess = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  let instant = guess - offsetMinutesAt(guess, timeZone) * 60_000;
  // A second pass settles times near an offset change.
  instant = guess - offsetMinutesAt(instant, timeZone) * 60_000;
  return instant;
}

const pad = (n: number) => String(n).padStart(2, "0");

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** ISO 8601 with the zone's offset: `2024-05-21T15:00:00-07:00`. */
export function isoInZone(instant: number, timeZone: string): string {
  const wall = wallTimeOf(instant, timeZone);
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${formatOffset(offsetMinutesAt(instant, timeZone))}`;
}

/** `YYYY-MM-DD` of an instant in a zone. */
export function isoDayInZone(instant: number, timeZone: string): string {
  const wall = wallTimeOf(instant, timeZone);
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** "Tue 21 May, 3:00 pm" (or "3 pm" when on the hour with `short`). */
export function describeInstant(instant: number, timeZone: string): string {
  const date = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
  }).format(new Date(instant));
  return `${date}, ${describeTime(instant, timeZone)}`;
}

export function describeTime(instant: number, timeZone: string): string {
  const wall = wallTimeOf(instant, timeZone);
  const hour12 = wall.hour % 12 === 0 ? 12 : wall.hour % 12;
  return `${hour12}:${pad(wall.minute)} ${wall.hour < 12 ? "am" : "pm"}`;
}
