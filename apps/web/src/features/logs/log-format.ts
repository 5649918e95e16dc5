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

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A cell as the table shows it. */
export function formatCell(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (field === "timestamp" && typeof value === "string") {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : dateTime.format(ms);
  }
  if (field === "duration" && typeof value === "number") return formatDuration(value);
  if (field === "transfer") return value === "1" || value === 1 ? "Yes" : "No";
  if ((field === "fromNumber" || field === "toNumber") && typeof value === "string")
    return formatPhoneNumber(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
