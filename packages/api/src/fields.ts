import { DAY_MS, utcDay } from "@switchboard/core";
import { z } from "zod";

/**
 * Shared request field schemas: what every route accepts as an id, a page number, a time, and as text.
 * Input a schema accepts must be storable: an id above PostgreSQL's `integer` or a string with NUL in it
 * would otherwise pass the schema and fail in the database (a 500 instead of a 400).
 */

/** Largest PostgreSQL `integer` (int4), the type of every id column. */
export const INT4_MAX = 2_147_483_647;

export const ID_MESSAGE = `must be a whole number from 1 to ${INT4_MAX}`;

/** A row id: a positive int4 (numbers or digits, as query strings and path segments send them). */
export const idSchema = z.coerce
  .number({ message: ID_MESSAGE })
  .int({ message: ID_MESSAGE })
  .min(1, { message: ID_MESSAGE })
  .max(INT4_MAX, { message: ID_MESSAGE });

/** True when `value` (a number or its digits) is an id `idSchema` accepts. */
export const isId = (value: unknown): boolean => idSchema.safeParse(value).success;

export const PAGE_MESSAGE = `must be a whole number from 0 to ${INT4_MAX}`;

/** A page number (0 is the first page). */
export const pageNumberSchema = z.coerce
  .number({ message: PAGE_MESSAGE })
  .int({ message: PAGE_MESSAGE })
  .min(0, { message: PAGE_MESSAGE })
  .max(INT4_MAX, { message: PAGE_MESSAGE });

/** Earliest and latest time a date field takes: 0001-01-01 to 9999-12-31 (UTC), as PostgreSQL stores. */
export const TIME_MIN_MS = Date.parse("0001-01-01T00:00:00.000Z");
export const TIME_MAX_MS = Date.parse("9999-12-31T23:59:59.999Z");

export const DATE_MESSAGE = "Enter a date (ISO 8601 or ms since 1970).";
export const DATE_RANGE_MESSAGE = "Enter a date between the years 1 and 9999.";

/** A time as ms since 1970, within the years 1 to 9999. */
export const timeMsSchema = z.coerce
  .number({ message: DATE_MESSAGE })
  .int({ message: DATE_MESSAGE })
  .min(TIME_MIN_MS, { message: DATE_RANGE_MESSAGE })
  .max(TIME_MAX_MS, { message: DATE_RANGE_MESSAGE });

/**
 * Does a window of `lengthMs` from `startMs` end by TIME_MAX_MS? A route whose window has a length of its own
 * (a default span, a booking's duration, one day) refuses a start that would carry it past the year 9999:
 * the database could not store or compare its end.
 */
export const windowEndsInRange = (startMs: number, lengthMs: number): boolean =>
  startMs + lengthMs <= TIME_MAX_MS;

/** The message of a window that would end after TIME_MAX_MS (`the booking` must end by 9999-12-31.). */
export const windowRangeMessage = (window: string) => `${window} must end by 9999-12-31.`;

export const DAY_MESSAGE = "Use a date as YYYY-MM-DD or MM-DD-YYYY.";
/** Days are of the years 1970 to 9999, and a day's window (to its end) must end within 9999. */
export const DAY_RANGE_MESSAGE = "Enter a date from 1970-01-01 to 9999-12-30.";

/** UTC midnight of a `YYYY-MM-DD` or `MM-DD-YYYY` day that exists; null otherwise. */
export function calendarDayMs(text: string): number | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) return utcDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const us = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text);
  return us ? utcDay(Number(us[3]), Number(us[1]), Number(us[2])) : null;
}

/**
 * A calendar day (UTC) as `YYYY-MM-DD`, or also `MM-DD-YYYY` with `{ us: true }`: one that exists, from
 * 1970-01-01 to 9999-12-30 (so that the day's whole window ends within the year 9999).
 */
export function calendarDaySchema(options: { us?: boolean } = {}) {
  const format = options.us ? /^(\d{4}-\d{2}-\d{2}|\d{2}-\d{2}-\d{4})$/ : /^\d{4}-\d{2}-\d{2}$/;
  const message = options.us ? DAY_MESSAGE : "Use a date as YYYY-MM-DD.";
  return z
    .string()
    .trim()
    .regex(format, { message })
    .superRefine((text, ctx) => {
      const year = Number(text.length === 10 && text[4] === "-" ? text.slice(0, 4) : text.slice(-4));
      const day = calendarDayMs(text);
      if (year < 1970 || (day !== null && !windowEndsInRange(day, DAY_MS)))
        ctx.addIssue({ code: "custom", message: DAY_RANGE_MESSAGE });
      else if (day === null) ctx.addIssue({ code: "custom", message });
    });
}

export const TEXT_NUL_MESSAGE = "must not contain the NUL character (U+0000)";
export const TEXT_SURROGATE_MESSAGE = "must be valid Unicode text (it contains an unpaired surrogate)";
export const KEY_NUL_MESSAGE = "must not have a key that contains the NUL character (U+0000)";
export const KEY_SURROGATE_MESSAGE =
  "must not have a key that is not valid Unicode text (an unpaired surrogate)";

/** Deepest nesting of arrays and objects a request may carry. */
export const MAX_NESTING = 64;
export const NESTING_MESSAGE = `is nested too deeply (at most ${MAX_NESTING} levels)`;

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored as text (PostgreSQL refuses NUL; UTF-8 has no lone surrogates), or null. */
export function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return TEXT_NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return TEXT_SURROGATE_MESSAGE;
  return null;
}

export type InputProblem = { path: (string | number)[]; message: string };

/**
 * The first string or object key in `value` that is not storable text, or nesting deeper than
 * MAX_NESTING. Walks without recursion, so no input can exhaust the stack. The server applies it to every
 * request part (query, path parameters, body) of every route before the route's own schema.
 */
export function findInputProblem(value: unknown): InputProblem | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (typeof current === "string") {
      const message = textProblem(current);
      if (message) return { path, message };
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    const isArray = Array.isArray(current);
    if (path.length >= MAX_NESTING) return { path: path.slice(0, MAX_NESTING), message: NESTING_MESSAGE };
    if (isArray) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...path, i] });
      continue;
    }
    for (const key of Object.keys(current)) {
      const problem = textProblem(key);
      if (problem)
        return { path, message: problem === TEXT_NUL_MESSAGE ? KEY_NUL_MESSAGE : KEY_SURROGATE_MESSAGE };
    }
    const entries = Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as [string, unknown];
      stack.push({ value: inner, path: [...path, key] });
    }
  }
  return null;
}

/** A revision counter a save was based on (an int4 column). */
export const revisionSchema = z
  .number()
  .int()
  .min(0)
  .max(INT4_MAX, { message: `must be at most ${INT4_MAX}` });
