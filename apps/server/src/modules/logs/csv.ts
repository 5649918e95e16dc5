/**
 * CSV cells (RFC 4180) that are safe to open in a spreadsheet: a cell holding a comma, quote, CR or LF is
 * quoted with quotes doubled; a cell that begins with = + - @ (or a tab or CR) could run as a formula, so
 * it gets a leading apostrophe (and is quoted) — unless it is a plain number such as -12 or +15035550100,
 * which no spreadsheet runs and people want to keep as it is.
 */

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    text = String(value);
  else if (value instanceof Date) text = value.toISOString();
  else text = JSON.stringify(value);
  if (text === "") return "";
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) {
    return `"'${text.replace(/"/g, '""')}"`;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (CRLF-terminated, as RFC 4180 writes it). */
export function csvLine(values: readonly unknown[]): string {
  let line = "";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ",";
    line += csvCell(values[i]);
  }
  return `${line}\r\n`;
}
