import { formatPhoneNumber, humanizeFieldName, isLogFixedField, LOG_FIELD_LABELS } from "@switchboard/core";
import { formatCalendarDay, formatInstant } from "../../lib/time-format.ts";

/** Column header of a field: the fixed fields' own labels, other fields in words. */
export function fieldLabel(field: string, labels: Readonly<Record<string, string>> = {}): string {
  if (Object.hasOwn(labels, field)) return labels[field] as string;
  return isLogFixedField(field) ? LOG_FIELD_LABELS[field] : humanizeFieldName(field);
}

/** Seconds as m:ss (h:mm:ss from an hour). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date or time of a call as people read it: in the account's time zone (else the browser's), with the
 * zone's abbreviation when it is not the browser's (lib/time-format.ts). A plain `YYYY-MM-DD` is a calendar
 * day. Text that is no date is shown as it is.
 */
export function formatDateValue(value: string | number, timeZone?: string | null): string {
  if (typeof value === "string" && DATE_ONLY.test(value)) return formatCalendarDay(value);
  return formatInstant(value, "dateTime", { account: timeZone });
}

export type CellContext = {
  /** The field's type as GET /api/v2/logs/fields inferred it. */
  type?: string | undefined;
  /** The account's time zone (null: the browser's). */
  timeZone?: string | null | undefined;
};

/**
 * Whether a cell is kept on one line: a number, a time or a length broken over lines is hard to read and
 * made each row four lines tall (the table scrolls sideways instead).
 */
export function keepsOnOneLine(field: string, context: CellContext = {}): boolean {
  return (
    field === "timestamp" ||
    context.type === "date" ||
    field === "duration" ||
    field === "fromNumber" ||
    field === "toNumber"
  );
}

/** A cell as the table shows it. */
export function formatCell(field: string, value: unknown, context: CellContext = {}): string {
  if (value === null || value === undefined || value === "") return "—";
  if (
    (field === "timestamp" || context.type === "date") &&
    (typeof value === "string" || typeof value === "number")
  )
    return formatDateValue(value, context.timeZone);
  if (field === "duration" && typeof value === "number") return formatDuration(value);
  if (field === "transfer") return value === "1" || value === 1 ? "Yes" : "No";
  if ((field === "fromNumber" || field === "toNumber") && typeof value === "string")
    return formatPhoneNumber(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
