import { Readable } from "node:stream";
import { MAX_TASK_ROW_ERRORS, MAX_TASK_ROWS, TASK_MESSAGES, type TaskColumnField } from "@switchboard/api";
import { cleanText, isValidTimeZone, normalizePhoneNumber, truncateText } from "@switchboard/core";
import { CsvError, parse } from "csv-parse";
import { ApiError } from "../../api-error.ts";

/** Column headers (lower case, without spaces, dashes and underscores) each person field is read from. */
const FIELD_HEADERS: Record<Exclude<TaskColumnField, "variable">, string[]> = {
  phone: [
    "phone",
    "phonenumber",
    "number",
    "mobile",
    "mobilenumber",
    "cell",
    "cellphone",
    "telephone",
    "tel",
  ],
  name: ["name", "fullname", "contactname", "customername"],
  email: ["email", "emailaddress", "mail"],
  timeZone: ["timezone", "tz", "zone"],
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const headerKey = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, "");

export type ColumnOverrides = {
  phoneColumn?: string | undefined;
  nameColumn?: string | undefined;
  emailColumn?: string | undefined;
  timeZoneColumn?: string | undefined;
};

export type ParsedTaskRow = {
  line: number;
  phoneNumber: string;
  name: string | null;
  email: string | null;
  timeZone: string | null;
  variables: Record<string, string>;
};

export type RowError = { line: number; reason: string; value: string | null };

/** Reports a row error (counted always, kept among the first MAX_TASK_ROW_ERRORS). */
export type RefuseRow = (line: number, reason: string, value?: string | null) => void;

/** Good rows read between two batches (bounded memory: a batch is handed on, then dropped). */
export const TASK_CSV_BATCH_ROWS = 2000;

export type CsvImport = {
  /** Data rows read (the header is not one). */
  rows: number;
  errorCount: number;
  /** The first MAX_TASK_ROW_ERRORS errors. */
  errors: RowError[];
  columns: { header: string; field: TaskColumnField }[];
};

/**
 * What each column is: the overrides by header (case-insensitive), else the first header of each field's
 * names; the rest are variables. Null when no column holds phone numbers.
 */
export function mapColumns(headers: string[], overrides: ColumnOverrides = {}): TaskColumnField[] | null {
  const fields: TaskColumnField[] = headers.map(() => "variable");
  const wanted: [Exclude<TaskColumnField, "variable">, string | undefined][] = [
    ["phone", overrides.phoneColumn],
    ["name", overrides.nameColumn],
    ["email", overrides.emailColumn],
    ["timeZone", overrides.timeZoneColumn],
  ];
  for (const [field, override] of wanted) {
    let index = -1;
    if (override) index = headers.findIndex((h) => h.trim().toLowerCase() === override.trim().toLowerCase());
    if (index < 0)
      index = headers.findIndex(
        (h, i) => fields[i] === "variable" && FIELD_HEADERS[field].includes(headerKey(h)),
      );
    if (index >= 0 && fields[index] === "variable") fields[index] = field;
  }
  return fields.includes("phone") ? fields : null;
}

/**
 * Reads an uploaded list as it streams in (csv-parse): the first line names the columns, every further
 * non-empty line is a person. Good rows go to `onBatch` in batches of `batchSize` (awaited before more is
 * read, so memory stays bounded whatever the file's size); rows that cannot become a task are reported with
 * their line and reason and left out (`onBatch` may refuse rows too). A file that is not CSV at all (an
 * unclosed quote, binary data) throws, possibly after some batches: the caller runs the batches in one
 * transaction so that nothing is imported.
 */
export async function parseTaskCsv(
  input: Readable,
  options: ColumnOverrides & {
    onProgress?: (rows: number) => void;
    onBatch: (rows: ParsedTaskRow[], refuse: RefuseRow) => Promise<void>;
    batchSize?: number;
  },
): Promise<CsvImport> {
  const batchSize = options.batchSize ?? TASK_CSV_BATCH_ROWS;
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    max_record_size: 64 * 1024,
  });
  input.on("error", (error) => parser.destroy(error));
  input.pipe(parser);

  let headers: string[] | null = null;
  let fields: TaskColumnField[] = [];
  let batch: ParsedTaskRow[] = [];
  const errors: RowError[] = [];
  let errorCount = 0;
  let rows = 0;
  // Numbers seen so far (duplicates are row errors): the one thing kept for the whole file.
  const seen = new Map<string, number>();
  const refuse: RefuseRow = (line, reason, value = null) => {
    errorCount++;
    if (errors.length < MAX_TASK_ROW_ERRORS) errors.push({ line, reason, value });
  };
  const flush = async () => {
    if (batch.length === 0) return;
    const full = batch;
    batch = [];
    await options.onBatch(full, refuse);
  };

  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const { info } = item;
      // The file's text is kept, sent and shown: without NUL, controls and noncharacters.
      const record = item.record.map((value) => cleanText(value).trim());
      const line = info.lines;
      if (!headers) {
        headers = record.map((h) => h.trim());
        if (headers.every((h) => !h)) throw new ApiError(400, TASK_MESSAGES.noHeader);
        const mapped = mapColumns(headers, options);
        if (!mapped) throw new ApiError(400, TASK_MESSAGES.noPhoneColumn);
        fields = mapped;
        continue;
      }
      rows++;
      if (rows > MAX_TASK_ROWS) throw new ApiError(400, TASK_MESSAGES.tooManyRows);
      if (rows % 5000 === 0) options.onProgress?.(rows);
      if (record.length !== headers.length) {
        refuse(line, `Expected ${headers.length} columns, found ${record.length}.`);
        continue;
      }
      const row: ParsedTaskRow = {
        line,
        phoneNumber: "",
        name: null,
        email: null,
        timeZone: null,
        variables: {},
      };
      let rawPhone = "";
      for (const [i, field] of fields.entries()) {
        const value = record[i] ?? "";
        const header = headers[i] ?? "";
        if (field === "phone") rawPhone = value;
        else if (field === "name") row.name = value || null;
        else if (field === "email") row.email = value || null;
        else if (field === "timeZone") row.timeZone = value || null;
        else if (header && value) row.variables[header] = value.slice(0, 2000);
      }
      if (!rawPhone) {
        refuse(line, "No phone number.");
        continue;
      }
      const phone = normalizePhoneNumber(rawPhone);
      if (!phone) {
        refuse(line, "Not a valid phone number.", rawPhone.slice(0, 100));
        continue;
      }
      if (row.email && !EMAIL.test(row.email)) {
        refuse(line, "Not a valid e-mail address.", row.email.slice(0, 200));
        continue;
      }
      if (row.timeZone && !isValidTimeZone(row.timeZone)) {
        refuse(line, "Unknown time zone (use a name like America/New_York).", row.timeZone.slice(0, 100));
        continue;
      }
      const earlier = seen.get(phone);
      if (earlier !== undefined) {
        refuse(line, `The same number is on line ${earlier}.`, rawPhone.slice(0, 100));
        continue;
      }
      seen.set(phone, line);
      row.phoneNumber = phone;
      if (row.name) row.name = row.name.slice(0, 200);
      batch.push(row);
      if (batch.length >= batchSize) await flush();
    }
    if ((input as Readable & { truncated?: boolean }).truncated)
      throw new ApiError(413, TASK_MESSAGES.tooLarge);
    if (!headers || rows === 0) throw new ApiError(400, TASK_MESSAGES.emptyFile);
    await flush();
  } catch (error) {
    input.unpipe(parser);
    input.resume();
    if (error instanceof ApiError) throw error;
    if ((error as { code?: unknown }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new ApiError(413, TASK_MESSAGES.tooLarge);
    if (error instanceof CsvError)
      throw new ApiError(400, TASK_MESSAGES.malformed, {
        line: (error as CsvError & { lines?: number }).lines ?? null,
        reason: error.message,
      });
    throw error;
  }
  const named = headers as string[];
  // Errors found by `onBatch` (opted-out numbers) come after the parser's: in the file's order again.
  errors.sort((a, b) => a.line - b.line);
  return {
    rows,
    errorCount,
    errors,
    columns: named.map((header, i) => ({ header, field: fields[i] ?? "variable" })),
  };
}

/** The name of a list made from an uploaded file: its file name without `.csv`, as clean text. */
export function listNameOf(fileName: string | undefined): string {
  const name = cleanText(fileName ?? "")
    .replace(/\.csv$/i, "")
    .trim();
  return truncateText(name, 200) || "Uploaded list";
}

/**
 * The uploaded file as one buffer (at most MAX_TASK_CSV_BYTES, a few times smaller than the rows made of
 * it): read before the import's transaction so that it never waits on a slow client.
 */
export async function readUpload(file: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of file) chunks.push(chunk as Buffer);
  } catch (error) {
    if ((error as { code?: unknown }).code === "FST_REQ_FILE_TOO_LARGE")
      throw new ApiError(413, TASK_MESSAGES.tooLarge);
    throw error;
  }
  if ((file as Readable & { truncated?: boolean }).truncated) throw new ApiError(413, TASK_MESSAGES.tooLarge);
  return Buffer.concat(chunks);
}

/**
 * A buffer as a stream of 64 KB chunks: csv-parse parses a whole chunk at once, so one big chunk would hold
 * all its records in memory before the first batch is taken.
 */
export function streamOf(data: Buffer, chunkBytes = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += chunkBytes) yield data.subarray(at, at + chunkBytes);
    })(),
  );
}
