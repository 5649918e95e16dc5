import type { TaskColumnField } from "@switchboard/api";

/**
 * The upload's column mapping preview, read in the browser from the start of the chosen file before it is
 * sent: the header, the first rows, and what each column becomes. It follows the server's rule
 * (apps/server/src/modules/tasks/csv-import.ts): headers compared without case, spaces, dashes and
 * underscores; the first header of each field's names wins; every other column is a variable.
 */

/** Header names (normalised) each person field is read from, as the server matches them. */
const FIELD_HEADERS: Record<Exclude<TaskColumnField, "variable">, readonly string[]> = {
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

export const PERSON_FIELDS = ["phone", "name", "email", "timeZone"] as const;
export type PersonField = (typeof PERSON_FIELDS)[number];

export const FIELD_LABELS: Record<TaskColumnField, string> = {
  phone: "Phone number",
  name: "Name",
  email: "E-mail",
  timeZone: "Time zone",
  variable: "Variable",
};

/** The query parameter of the upload that maps each field by hand. */
export const FIELD_PARAMS: Record<
  PersonField,
  "phoneColumn" | "nameColumn" | "emailColumn" | "timeZoneColumn"
> = {
  phone: "phoneColumn",
  name: "nameColumn",
  email: "emailColumn",
  timeZone: "timeZoneColumn",
};

const headerKey = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, "");

/**
 * Splits the start of a CSV file into records (RFC 4180: quoted fields may hold commas, doubled quotes and
 * line breaks). Stops after `maxRecords`; a last line cut off by the read is dropped when `truncated`.
 * Empty lines are skipped and fields trimmed, as the server does.
 */
export function parseCsvStart(text: string, maxRecords: number, truncated = false): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field.trim());
    field = "";
    if (record.length > 1 || record[0] !== "") records.push(record);
    record = [];
  };
  for (; i < text.length && records.length < maxRecords; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field.trim() === "") {
      field = "";
      quoted = true;
    } else if (char === ",") {
      record.push(field.trim());
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      endRecord();
    } else field += char;
  }
  if (records.length < maxRecords && !truncated && !quoted && (field !== "" || record.length > 0))
    endRecord();
  return records;
}

export type ColumnOverrides = Partial<Record<PersonField, string>>;

/**
 * What each column becomes: the header chosen by hand for a field, else the first header of its names;
 * the rest are variables. A header chosen for two fields goes to the first.
 */
export function mapColumns(headers: readonly string[], overrides: ColumnOverrides = {}): TaskColumnField[] {
  const fields: TaskColumnField[] = headers.map(() => "variable");
  for (const field of PERSON_FIELDS) {
    const chosen = overrides[field];
    let index = -1;
    if (chosen) index = headers.findIndex((h) => h.trim().toLowerCase() === chosen.trim().toLowerCase());
    if (index < 0)
      index = headers.findIndex(
        (h, i) => fields[i] === "variable" && FIELD_HEADERS[field].includes(headerKey(h)),
      );
    if (index >= 0 && fields[index] === "variable") fields[index] = field;
  }
  return fields;
}

export type CsvPreview = {
  headers: string[];
  /** The first data rows, as read. */
  rows: string[][];
  fields: TaskColumnField[];
  /** No column holds phone numbers: the upload would be refused. */
  missingPhone: boolean;
};

/** The preview of a file's start: its header, first rows and mapping (null when it has no lines). */
export function previewCsv(
  text: string,
  overrides: ColumnOverrides = {},
  options: { rows?: number; truncated?: boolean } = {},
): CsvPreview | null {
  const [headers, ...rows] = parseCsvStart(text, (options.rows ?? 5) + 1, options.truncated);
  if (!headers) return null;
  const fields = mapColumns(headers, overrides);
  return { headers, rows, fields, missingPhone: !fields.includes("phone") };
}

/**
 * The upload's mapping parameters: only the fields the user moved away from what the server would guess
 * (a column chosen by hand), so an untouched mapping sends none.
 */
export function mappingQuery(headers: readonly string[], overrides: ColumnOverrides) {
  const guessed = mapColumns(headers);
  const query: Partial<Record<(typeof FIELD_PARAMS)[PersonField], string>> = {};
  for (const field of PERSON_FIELDS) {
    const chosen = overrides[field];
    if (!chosen) continue;
    const guessedIndex = guessed.indexOf(field);
    if (guessedIndex >= 0 && headers[guessedIndex]?.toLowerCase() === chosen.toLowerCase()) continue;
    query[FIELD_PARAMS[field]] = chosen;
  }
  return query;
}
