import { TIMEZONE_ROWS } from "./timezone-data.ts";

/** Time zone entry (product spec §3): `offset` in hours, possibly fractional; `utc` lists IANA zone names. */
export type TimezoneEntry = {
  value: string;
  abbr: string;
  offset: number;
  isdst: boolean;
  text: string;
  utc: string[];
};

/** The world's time zones, ordered by standard offset (see {@link TIMEZONE_ROWS}). */
export const TIMEZONES: readonly TimezoneEntry[] = TIMEZONE_ROWS.map(
  ([value, abbr, offset, isdst, text, utc]) => ({
    value,
    abbr,
    offset,
    isdst,
    text,
    utc: utc.split(" "),
  }),
);

function requireEntry(value: string): TimezoneEntry {
  const entry = TIMEZONES.find((candidate) => candidate.value === value);
  if (!entry) throw new Error(`Time zone table lacks ${value}`);
  return entry;
}

/** The fallback of every lookup: `(UTC) Coordinated Universal Time`. */
export const UTC_TIMEZONE: TimezoneEntry = requireEntry("UTC");

const byUtcId = new Map<string, TimezoneEntry>();
const byValue = new Map<string, TimezoneEntry>();
for (const entry of TIMEZONES) {
  byValue.set(entry.value.toLowerCase(), entry);
  for (const id of entry.utc) if (!byUtcId.has(id.toLowerCase())) byUtcId.set(id.toLowerCase(), entry);
}

/** Standard offset in hours read from an entry's text: `(UTC-05:00) ...` is -5, `(UTC) ...` is 0. */
export function standardOffset(entry: TimezoneEntry): number {
  const match = /^\(UTC(?:([+-])(\d{2}):(\d{2}))?\)/.exec(entry.text);
  if (!match?.[1]) return 0;
  const hours = Number(match[2]) + Number(match[3]) / 60;
  return match[1] === "-" ? -hours : hours;
}

/** The entry listing an IANA zone name (case-insensitive), e.g. `America/Detroit`. */
export function findTimezoneByUtc(id: string): TimezoneEntry | undefined {
  return byUtcId.get(id.trim().toLowerCase());
}

/** The entry with this value (case-insensitive), e.g. `Eastern Standard Time`. */
export function findTimezoneByValue(value: string): TimezoneEntry | undefined {
  return byValue.get(value.trim().toLowerCase());
}

/** The first entry whose text, else whose value, contains the given part (case-insensitive), e.g. `London`. */
export function findTimezoneByName(part: string): TimezoneEntry | undefined {
  const needle = part.trim().toLowerCase();
  if (needle === "") return undefined;
  return (
    TIMEZONES.find((entry) => entry.text.toLowerCase().includes(needle)) ??
    TIMEZONES.find((entry) => entry.value.toLowerCase().includes(needle))
  );
}

/**
 * The main zone of an offset shared by several entries: UTC for 0, the US & Canada zones for North American
 * offsets, and the most populous zone elsewhere. Offsets without one resolve to their first entry.
 */
const MAIN_ZONE_OF_OFFSET: ReadonlySet<string> = new Set([
  "Hawaiian Standard Time",
  "Alaskan Standard Time",
  "Pacific Standard Time",
  "Mountain Standard Time",
  "Central Standard Time",
  "Eastern Standard Time",
  "Atlantic Standard Time",
  "E. South America Standard Time",
  "UTC",
  "W. Europe Standard Time",
  "Russian Standard Time",
  "India Standard Time",
  "China Standard Time",
  "Tokyo Standard Time",
  "AUS Eastern Standard Time",
  "Central Pacific Standard Time",
  "New Zealand Standard Time",
]);

/**
 * The entry for a standard UTC offset in hours (the offset its text shows, `-5` for `(UTC-05:00)`): the main
 * zone of that offset when there is one, else the first entry with it.
 */
export function findTimezoneByOffset(hours: number): TimezoneEntry | undefined {
  const candidates = TIMEZONES.filter((entry) => standardOffset(entry) === hours);
  return candidates.find((entry) => MAIN_ZONE_OF_OFFSET.has(entry.value)) ?? candidates[0];
}

/**
 * Reads a numeric UTC offset in hours: `-5`, `+5.5`, `5:30`, `-0500`, `UTC-05:00`, `GMT+1`.
 * Null for anything else, and for offsets outside -12..+14.
 */
export function parseUtcOffset(text: string): number | null {
  const match = /^(?:utc|gmt)?\s*([+-])?\s*(\d{1,2})(?:(?::?(\d{2}))|(\.\d+))?$/i.exec(text.trim());
  if (!match) return null;
  const sign = match[1] === "-" ? -1 : 1;
  const hours = Number(match[2]) + (match[3] ? Number(match[3]) / 60 : 0) + (match[4] ? Number(match[4]) : 0);
  const offset = sign * hours;
  return offset >= -12 && offset <= 14 ? offset : null;
}

/**
 * Resolves a time zone as pre-fill data gives it (product spec §4.1): by IANA zone name, by value, by
 * numeric offset (a number or an offset string, see {@link parseUtcOffset}), by partial name; anything
 * else (including nothing) falls back to {@link UTC_TIMEZONE}.
 */
export function resolveTimezone(input: string | number | null | undefined): TimezoneEntry {
  if (typeof input === "number") return findTimezoneByOffset(input) ?? UTC_TIMEZONE;
  if (typeof input !== "string" || input.trim() === "") return UTC_TIMEZONE;
  const offset = parseUtcOffset(input);
  return (
    findTimezoneByUtc(input) ??
    findTimezoneByValue(input) ??
    (offset === null ? undefined : findTimezoneByOffset(offset)) ??
    findTimezoneByName(input) ??
    UTC_TIMEZONE
  );
}
