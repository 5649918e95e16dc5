import { formatPhoneNumber, humanizeFieldName, isLogFixedField, LOG_FIELD_LABELS } from "@switchboard/core";

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

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string | undefined, dateOnly: boolean): Intl.DateTimeFormat {
  const key = `${timeZone ?? ""}|${dateOnly}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(undefined, {
        dateStyle: "medium",
        ...(dateOnly ? {} : { timeStyle: "short" }),
        ...(timeZone ? { timeZone } : {}),
      });
    } catch {
      // A zone this browser does not know: its own.
      format = new Intl.DateTimeFormat(undefined, {
        dateStyle: "medium",
        ...(dateOnly ? {} : { timeStyle: "short" }),
      });
    }
    formats.set(key, format);
  }
  return format;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?[+-]\d{2}:?\d{2}$/;

/**
 * A date or time of a call as people read it, in the time zone of the account it belongs to (the row's
 * agent) when known. Without one, a time written with its offset (an appointment the agent booked:
 * `2026-12-01T10:00:00-08:00`) keeps its own wall-clock time, and other instants use the browser's zone. A
 * plain `YYYY-MM-DD` is a calendar day. Text that is no date is shown as it is.
 */
export function formatDateValue(value: string | number, timeZone?: string | null): string {
  if (typeof value === "string") {
    const day = DATE_ONLY.exec(value)?.slice(1).map(Number);
    if (day) return formatOf("UTC", true).format(Date.UTC(day[0] ?? 0, (day[1] ?? 1) - 1, day[2] ?? 1));
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) return value;
    if (timeZone) return formatOf(timeZone, false).format(ms);
    const zoned = WITH_OFFSET.exec(value)
      ?.slice(1)
      .map((part) => Number(part ?? 0));
    if (zoned) {
      const [y = 0, mo = 1, d = 1, h = 0, mi = 0, sec = 0] = zoned;
      return formatOf("UTC", false).format(Date.UTC(y, mo - 1, d, h, mi, sec));
    }
    return formatOf(undefined, false).format(ms);
  }
  return formatOf(timeZone ?? undefined, false).format(value);
}

export type CellContext = {
  /** The field's type as GET /api/v2/logs/fields inferred it. */
  type?: string | undefined;
  /** The time zone of the row's account (its agent), when known. */
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
