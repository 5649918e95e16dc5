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

/**
 * {@link csvCell} in SQL, for the streamed export (PostgreSQL builds each line; Node only writes text).
 * `text` is a text expression the caller evaluates once per row (a column of a subquery); `plain` marks
 * values that never need quoting or defusing (integers, ISO timestamps).
 */
export function csvCellSql(text: string, plain: boolean): string {
  if (plain) return `coalesce(${text}, '')`;
  return (
    `(CASE WHEN ${text} IS NULL THEN '' ` +
    `WHEN left(${text}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') AND ${text} !~ '^[+-]?[0-9]+([.][0-9]+)?$' ` +
    `THEN '"''' || replace(${text}, '"', '""') || '"' ` +
    `WHEN ${text} ~ E'[",\\r\\n]' THEN '"' || replace(${text}, '"', '""') || '"' ` +
    `ELSE ${text} END)`
  );
}

/** A cell of a line whose text holds no quote, comma, CR or LF: defused only. */
function defusedCellSql(text: string, plain: boolean): string {
  if (plain) return `coalesce(${text}, '')`;
  // ascii(): = + - @ TAB CR; a plain number such as +15035550100 or -12 stays as it is.
  return (
    `(CASE WHEN ascii(${text}) IN (61, 43, 45, 64, 9, 13) AND ${text} !~ '^[+-]?[0-9]+([.][0-9]+)?$' ` +
    `THEN '"''' || ${text} || '"' ELSE coalesce(${text}, '') END)`
  );
}

/**
 * {@link csvLine} in SQL: cells are text expressions evaluated once per row (columns of a subquery). One
 * test per row decides whether any cell needs quotes; most lines need none and skip those checks.
 */
export function csvLineSql(cells: ReadonlyArray<{ text: string; plain: boolean }>): string {
  // concat_ws builds the line in one pass (a chain of || copies the growing line once per cell); every
  // cell is non-null here, so none is skipped.
  const join = (parts: string[]) => `(concat_ws(',', ${parts.join(", ")}) || E'\\r\\n')`;
  const full = join(cells.map((cell) => csvCellSql(cell.text, cell.plain)));
  const quotable = cells.filter((cell) => !cell.plain).map((cell) => cell.text);
  if (quotable.length === 0) return full;
  const fast = join(cells.map((cell) => defusedCellSql(cell.text, cell.plain)));
  return `(CASE WHEN concat(${quotable.join(", ")}) ~ E'[",\\r\\n]' THEN ${full} ELSE ${fast} END)`;
}
