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

/**
 * {@link csvCell}'s text for `COPY … TO STDOUT (FORMAT csv)`, which quotes a cell holding a comma, quote, CR
 * or LF as csvCell does but knows nothing of defusing and quotes an empty text. So: an empty text becomes
 * NULL (an empty cell), and a defused cell becomes CR + apostrophe + text. No cell csvCell leaves alone
 * begins with CR (it is defused), so COPY quotes exactly the marked cells with a CR after their opening
 * quote, which {@link CopyCsvLines} removes.
 */
export function copyCellSql(text: string, plain: boolean): string {
  if (plain) return text;
  return (
    `(CASE WHEN ascii(${text}) IN (61, 43, 45, 64, 9, 13) AND ${text} !~ '^[+-]?[0-9]+([.][0-9]+)?$' ` +
    `THEN E'\\r''' || ${text} WHEN ${text} = '' THEN NULL ELSE ${text} END)`
  );
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * Turns the bytes of `COPY … TO STDOUT (FORMAT csv)` of {@link copyCellSql} cells into {@link csvLine}'s:
 * each record's LF becomes CRLF (an LF inside a quoted cell stays), and the CR after a marked cell's
 * opening quote is dropped. Chunks may split anywhere; quotes and line ends are found with indexOf, so a
 * line without quotes costs one search. Lines of two cells or more only: with one, COPY also quotes a lone
 * `\.`, which csvLine does not.
 */
export class CopyCsvLines {
  private inQuotes = false;
  /** The byte before the next chunk (a record start at first). */
  private previous = LF;
  /** The last chunk ended on an opening quote: the next chunk's first byte may be a marker. */
  private openingAtEnd = false;
  private readonly ends: number[] = [];
  private readonly markers: number[] = [];

  push(chunk: Buffer): Buffer {
    const n = chunk.length;
    const { ends, markers } = this;
    ends.length = 0;
    markers.length = 0;
    let inQuotes = this.inQuotes;
    if (this.openingAtEnd && n > 0) {
      if (chunk[0] === CR) markers.push(0);
      this.openingAtEnd = false;
    }
    let quote = chunk.indexOf(QUOTE);
    let lf = chunk.indexOf(LF);
    while (quote !== -1 || lf !== -1) {
      if (quote !== -1 && (lf === -1 || quote < lf)) {
        if (inQuotes) inQuotes = false;
        else {
          inQuotes = true;
          // Not after a quote (that would be the second of a doubled quote, inside a cell): an opening one.
          if ((quote > 0 ? chunk[quote - 1] : this.previous) !== QUOTE) {
            if (quote + 1 === n) this.openingAtEnd = true;
            else if (chunk[quote + 1] === CR) markers.push(quote + 1);
          }
        }
        quote = chunk.indexOf(QUOTE, quote + 1);
      } else {
        if (!inQuotes) ends.push(lf);
        lf = chunk.indexOf(LF, lf + 1);
      }
    }
    this.inQuotes = inQuotes;
    if (n > 0) this.previous = chunk[n - 1] as number;
    const out = Buffer.allocUnsafe(n + ends.length - markers.length);
    let o = 0;
    let at = 0;
    let m = 0;
    for (const end of ends) {
      while (m < markers.length && (markers[m] as number) < end) {
        o += chunk.copy(out, o, at, markers[m]);
        at = (markers[m] as number) + 1;
        m++;
      }
      o += chunk.copy(out, o, at, end);
      out[o++] = CR;
      out[o++] = LF;
      at = end + 1;
    }
    for (; m < markers.length; m++) {
      o += chunk.copy(out, o, at, markers[m]);
      at = (markers[m] as number) + 1;
    }
    o += chunk.copy(out, o, at, n);
    return out.subarray(0, o);
  }
}
