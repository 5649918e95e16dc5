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
 * NULL (an empty cell), and a cell beginning with = + - @ TAB or CR gets a CR in front, which makes COPY
 * quote it. No other cell begins with CR, so {@link CopyCsvLines} knows the marked cells by the CR after
 * their opening quote, and there tells a plain number (unquoted, as it was) from a formula (defused). The
 * number test is Node's: a regex per phone number cost PostgreSQL more than the rest of the cell.
 */
export function copyCellSql(text: string, plain: boolean): string {
  if (plain) return text;
  return `(CASE WHEN ascii(${text}) IN (61, 43, 45, 64, 9, 13) THEN E'\\r' || ${text} WHEN ${text} = '' THEN NULL ELSE ${text} END)`;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;
const COMMA = 44;
const APOSTROPHE = 39;

const isDigit = (c: number | undefined) => c !== undefined && c >= 48 && c <= 57;

/**
 * Where a plain number (`[+-]?[0-9]+([.][0-9]+)?`, as csvCell's) that fills a quoted cell from `from` ends:
 * the index of its closing quote, or -1 when the cell holds anything else.
 */
function plainNumberEnd(b: Buffer, from: number): number {
  let k = from;
  if (b[k] === 43 || b[k] === 45) k++;
  const digits = k;
  while (isDigit(b[k])) k++;
  if (k === digits) return -1;
  if (b[k] === 46) {
    const fraction = ++k;
    while (isDigit(b[k])) k++;
    if (k === fraction) return -1;
  }
  return b[k] === QUOTE && (b[k + 1] === COMMA || b[k + 1] === LF) ? k : -1;
}

/**
 * Turns the bytes of `COPY … TO STDOUT (FORMAT csv)` of {@link copyCellSql} cells into {@link csvLine}'s:
 * each record's LF becomes CRLF (an LF inside a quoted cell stays), and each marked cell (a CR after its
 * opening quote) loses its quotes and mark when it is a plain number, else the mark becomes the
 * apostrophe that defuses it. Chunks may split anywhere: a chunk's last, unfinished record waits for the
 * next. Quotes and line ends are found with indexOf, so a line without quotes costs one search. Lines of
 * two cells or more only: with one, COPY also quotes a lone `\.`, which csvLine does not.
 */
export class CopyCsvLines {
  private rest: Buffer | null = null;
  private readonly ends: number[] = [];
  private readonly marks: number[] = [];

  /** Bytes of an unfinished record held back (none once COPY has ended well). */
  get pending(): number {
    return this.rest?.length ?? 0;
  }

  push(input: Buffer): Buffer {
    const chunk = this.rest ? Buffer.concat([this.rest, input]) : input;
    this.rest = null;
    const { ends, marks } = this;
    ends.length = 0;
    marks.length = 0;
    // The chunk begins at a record's start, outside quotes.
    let inQuotes = false;
    let quote = chunk.indexOf(QUOTE);
    let lf = chunk.indexOf(LF);
    while (lf !== -1) {
      if (quote !== -1 && quote < lf) {
        if (inQuotes) inQuotes = false;
        else {
          inQuotes = true;
          // After a quote it is the second of a doubled quote (inside a cell); else an opening one.
          if (chunk[quote + 1] === CR && (quote === 0 || chunk[quote - 1] !== QUOTE)) marks.push(quote);
        }
        quote = chunk.indexOf(QUOTE, quote + 1);
      } else {
        if (!inQuotes) ends.push(lf);
        lf = chunk.indexOf(LF, lf + 1);
      }
    }
    const last = ends.length > 0 ? (ends[ends.length - 1] as number) : -1;
    if (last + 1 < chunk.length) this.rest = chunk.subarray(last + 1);
    if (last === -1) return Buffer.alloc(0);
    const out = Buffer.allocUnsafe(last + 1 + ends.length);
    let o = 0;
    let at = 0;
    let m = 0;
    for (const end of ends) {
      for (; m < marks.length && (marks[m] as number) < end; m++) {
        const open = marks[m] as number;
        const close = plainNumberEnd(chunk, open + 2);
        if (close !== -1) {
          o += chunk.copy(out, o, at, open);
          o += chunk.copy(out, o, open + 2, close);
          at = close + 1;
        } else {
          o += chunk.copy(out, o, at, open + 1);
          out[o++] = APOSTROPHE;
          at = open + 2;
        }
      }
      o += chunk.copy(out, o, at, end);
      out[o++] = CR;
      out[o++] = LF;
      at = end + 1;
    }
    return out.subarray(0, o);
  }
}
