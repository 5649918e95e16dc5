import { DAY_MS } from "../constants.ts";
import type { Filters, FilterValue } from "../filters/normalize.ts";
import {
  type FilterFieldType,
  type FilterOperator,
  isOperatorOfType,
  RANGE_OPERATORS,
  RELATIVE_DATE_OPERATORS,
} from "../filters/operators.ts";
import { lastRange, nextRange, parseRelativeDate } from "../filters/relative-date.ts";
import { parseIsoDay } from "../helpers/calendar-day.ts";
import { isNumericString } from "../helpers/numeric.ts";
import {
  isLogFixedField,
  LOG_COLUMNS,
  LOG_DATA_COLUMN,
  LOG_DATA_KEY_PATTERN,
  type LogColumnSqlType,
  type LogFixedField,
  logFilterFieldTypes,
} from "./log-fields.ts";

/**
 * Translates normalised log filters into a parameterised SQL condition over `conversation_logs`.
 *
 * Only whitelisted fields reach SQL: the fixed fields of a log row (as their snake_case columns) and dynamic keys
 * matching {@link LOG_DATA_KEY_PATTERN} (read from the jsonb column `data`). Only the operators of the field's
 * type are accepted. Values never enter the SQL text: each becomes a `$n` parameter with an explicit cast. A
 * rejected field, operator or value raises {@link LogFilterError}.
 *
 * Semantics: `is`, `eq` and `contains` with a list match any item; `contains` is case-insensitive and literal
 * (no wildcards); negated operators (isNot, notContains, ne, notBetween, notOn, notLast) also match rows where
 * the field is missing; `between` is inclusive; date days (`on`, `before`, `since`, date `between`) are whole
 * days at the given UTC offset (default UTC); `last`/`notLast`/`beforeLast`/`inNext` are resolved against the
 * supplied `now`. Text that does not hold a number or a date never matches a numeric or date comparison (it
 * is read as missing rather than raising a database error).
 */

export type LogFilterErrorCode = "INVALID_FIELD" | "INVALID_OPERATOR" | "INVALID_VALUE";

/** A filter the translator refuses; `message` says which and why, for the caller to answer with a 400. */
export class LogFilterError extends Error {
  readonly code: LogFilterErrorCode;
  readonly field: string;

  constructor(code: LogFilterErrorCode, field: string, message: string) {
    super(message);
    this.name = "LogFilterError";
    this.code = code;
    this.field = field;
  }
}

/** Most items one filter may list (e.g. `is` any of N values). */
export const MAX_FILTER_VALUES = 50;

export type LogFilterColumnRef =
  | { kind: "fixed"; field: LogFixedField; name: string; sqlType: LogColumnSqlType }
  | { kind: "data"; key: string };

/**
 * One translated filter. `params` are the resolved values, in placeholder order: strings for string filters,
 * numbers for integer filters, ISO timestamps for date filters (instants, with ranges half-open `[start, end)`
 * for days and closed `[start, end]` for relative ranges).
 */
export type LogFilterClause = {
  field: string;
  column: LogFilterColumnRef;
  valueType: FilterFieldType;
  operator: FilterOperator;
  params: Array<string | number>;
};

export type LogFilterTranslation = { clauses: LogFilterClause[] };

export type TranslateLogFiltersOptions = {
  /** Epoch ms that relative date ranges are resolved against. */
  now: number;
  /** Types of dynamic fields (e.g. from {@link inferLogFieldTypes}); unknown ones are strings. */
  fieldTypes?: Readonly<Record<string, FilterFieldType>>;
  /** Restricts the accepted operators further, e.g. to the enabled ones. */
  operators?: readonly FilterOperator[];
  /** Offset of the user's day boundaries from UTC in minutes (e.g. -300 for UTC-05:00); default 0. */
  utcOffsetMinutes?: number;
};

const MAX_SHOWN = 64;

/** A caller-supplied name shown safely in a message: JSON-quoted, long ones cut. */
function shown(text: string): string {
  return JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
}

function fail(code: LogFilterErrorCode, field: string, message: string): never {
  throw new LogFilterError(code, field, message);
}

function resolveColumn(field: string): LogFilterColumnRef {
  if (isLogFixedField(field)) {
    const column = LOG_COLUMNS[field];
    return { kind: "fixed", field, name: column.name, sqlType: column.sqlType };
  }
  if (LOG_DATA_KEY_PATTERN.test(field)) return { kind: "data", key: field };
  return fail(
    "INVALID_FIELD",
    field,
    `Filter field ${shown(field)} is not allowed: use a log field or a data key of letters, digits and underscores (at most 64, not starting with a digit)`,
  );
}

function items(field: string, value: FilterValue): Array<string | number | boolean> {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) fail("INVALID_VALUE", field, `Filter ${shown(field)} needs a value`);
  if (list.length > MAX_FILTER_VALUES) {
    fail("INVALID_VALUE", field, `Filter ${shown(field)} lists more than ${MAX_FILTER_VALUES} values`);
  }
  return list;
}

function toText(field: string, item: string | number | boolean): string {
  const text = String(item);
  if (text === "") fail("INVALID_VALUE", field, `Filter ${shown(field)} needs a value`);
  return text;
}

function toNumber(field: string, item: string | number | boolean, whole: boolean): number {
  const number = typeof item === "number" ? item : isNumericString(item) ? Number(item) : Number.NaN;
  if (!Number.isFinite(number))
    fail("INVALID_VALUE", field, `Filter value for ${shown(field)} must be a number`);
  if (whole && !Number.isSafeInteger(number)) {
    fail("INVALID_VALUE", field, `Filter value for ${shown(field)} must be a whole number`);
  }
  return number;
}

/** Start (UTC ms) of the day holding a date value, at the given offset. */
function dayStart(field: string, item: string | number | boolean, offsetMs: number): number {
  let ms = Number.NaN;
  if (typeof item === "number") ms = item;
  else if (typeof item === "string") {
    const text = item.trim();
    const day = parseIsoDay(text);
    if (day !== null) return day - offsetMs;
    if (/^\d+$/.test(text)) ms = Number(text);
    else if (/^\d{4}-\d{2}-\d{2}[T ]/.test(text)) ms = Date.parse(text);
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    fail(
      "INVALID_VALUE",
      field,
      `Filter value for ${shown(field)} must be a date (YYYY-MM-DD, ISO timestamp or epoch ms)`,
    );
  }
  return Math.floor((ms + offsetMs) / DAY_MS) * DAY_MS - offsetMs;
}

const iso = (ms: number) => new Date(ms).toISOString();

function exactlyTwo(
  field: string,
  value: FilterValue,
): [string | number | boolean, string | number | boolean] {
  const list = Array.isArray(value) ? value : [];
  if (list.length !== 2) fail("INVALID_VALUE", field, `Filter ${shown(field)} needs two values: from and to`);
  return [list[0] as string | number | boolean, list[1] as string | number | boolean];
}

function exactlyOne(field: string, value: FilterValue): string | number | boolean {
  const list = items(field, value);
  if (list.length !== 1) fail("INVALID_VALUE", field, `Filter ${shown(field)} takes one value`);
  return list[0] as string | number | boolean;
}

function resolveParams(
  field: string,
  column: LogFilterColumnRef,
  type: FilterFieldType,
  operator: FilterOperator,
  value: FilterValue,
  options: TranslateLogFiltersOptions,
): Array<string | number> {
  if (operator === "isSet" || operator === "isNotSet") return [];
  if (type === "string") return items(field, value).map((item) => toText(field, item));
  if (type === "integer") {
    const whole = column.kind === "fixed" && column.sqlType === "integer";
    if ((RANGE_OPERATORS as readonly string[]).includes(operator)) {
      const [from, to] = exactlyTwo(field, value).map((item) => toNumber(field, item, whole)) as [
        number,
        number,
      ];
      return from <= to ? [from, to] : [to, from];
    }
    if (operator === "eq" || operator === "ne")
      return items(field, value).map((item) => toNumber(field, item, whole));
    return [toNumber(field, exactlyOne(field, value), whole)];
  }
  if ((RELATIVE_DATE_OPERATORS as readonly string[]).includes(operator)) {
    const relative = parseRelativeDate(exactlyOne(field, value));
    if (!relative) {
      fail(
        "INVALID_VALUE",
        field,
        `Filter value for ${shown(field)} must be a relative range such as "7 day"`,
      );
    }
    if (!Number.isFinite(options.now))
      fail("INVALID_VALUE", field, "Relative date filters need the current time");
    const range = operator === "inNext" ? nextRange(relative, options.now) : lastRange(relative, options.now);
    return operator === "beforeLast" ? [iso(range.start)] : [iso(range.start), iso(range.end)];
  }
  const offsetMs = (options.utcOffsetMinutes ?? 0) * 60_000;
  if ((RANGE_OPERATORS as readonly string[]).includes(operator)) {
    const [a, b] = exactlyTwo(field, value).map((item) => dayStart(field, item, offsetMs)) as [
      number,
      number,
    ];
    const [from, to] = a <= b ? [a, b] : [b, a];
    return [iso(from), iso(to + DAY_MS)];
  }
  const start = dayStart(field, exactlyOne(field, value), offsetMs);
  return operator === "on" || operator === "notOn" ? [iso(start), iso(start + DAY_MS)] : [iso(start)];
}

/** Checks and resolves every filter; throws {@link LogFilterError} on the first one refused. */
export function translateLogFilters(
  filters: Filters,
  options: TranslateLogFiltersOptions,
): LogFilterTranslation {
  const types = logFilterFieldTypes(options.fieldTypes);
  const clauses: LogFilterClause[] = [];
  for (const [field, entry] of Object.entries(filters)) {
    const column = resolveColumn(field);
    const type = (Object.hasOwn(types, field) ? types[field] : undefined) ?? "string";
    const operator = entry.op;
    if (!isOperatorOfType(operator, type) || (options.operators && !options.operators.includes(operator))) {
      fail(
        "INVALID_OPERATOR",
        field,
        `Filter operator ${shown(operator)} is not allowed for ${type} field ${shown(field)}`,
      );
    }
    clauses.push({
      field,
      column,
      valueType: type,
      operator,
      params: resolveParams(field, column, type, operator, entry.value, options),
    });
  }
  return { clauses };
}

// ---- rendering -------------------------------------------------------------------------------------------

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Numeric text: optional sign, at most 30 digits before and 30 after the point. */
const NUMERIC_TEXT = "'^[[:space:]]*[-+]?([0-9]{1,30}([.][0-9]{0,30})?|[.][0-9]{1,30})[[:space:]]*$'";
/** Calendar date with optional time and zone, in ranges PostgreSQL accepts. */
const TIMESTAMP_TEXT =
  "'^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])" +
  "([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]{1,6})?)?(Z|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?)?$'";

/** Text as a number, or NULL when it is not one (never a cast error). */
function numericOf(text: string): string {
  return `(CASE WHEN ${text} ~ ${NUMERIC_TEXT} THEN (${text})::numeric END)`;
}

/** Text as a timestamp, or NULL when it is not a real date (never a cast error: day-of-month checked too). */
function timestampOf(text: string): string {
  const year = `substr(${text}, 1, 4)::int`;
  const leap = `((${year} % 4 = 0 AND ${year} % 100 <> 0) OR ${year} % 400 = 0)`;
  const monthDays =
    `(CASE substr(${text}, 6, 2) WHEN '02' THEN (CASE WHEN ${leap} THEN 29 ELSE 28 END) ` +
    "WHEN '04' THEN 30 WHEN '06' THEN 30 WHEN '09' THEN 30 WHEN '11' THEN 30 ELSE 31 END)";
  return (
    `(CASE WHEN ${text} ~ ${TIMESTAMP_TEXT} THEN ` +
    `(CASE WHEN substr(${text}, 9, 2)::int <= ${monthDays} THEN (${text})::timestamptz END) END)`
  );
}

function columnSql(clause: LogFilterClause): string {
  const { column, valueType } = clause;
  if (column.kind === "data") {
    if (!LOG_DATA_KEY_PATTERN.test(column.key)) {
      fail("INVALID_FIELD", clause.field, `Filter field ${shown(column.key)} is not allowed`);
    }
    // The key matched the pattern (letters, digits, underscores), so it is safe inside a string literal.
    const text = `(${quoteIdent(LOG_DATA_COLUMN)} ->> '${column.key}')`;
    return valueType === "integer" ? numericOf(text) : valueType === "date" ? timestampOf(text) : text;
  }
  const known = LOG_COLUMNS[column.field];
  if (!known || known.name !== column.name || known.sqlType !== column.sqlType) {
    fail("INVALID_FIELD", clause.field, `Filter field ${shown(clause.field)} is not allowed`);
  }
  const id = quoteIdent(known.name);
  if (valueType === "integer") return known.sqlType === "integer" ? id : numericOf(id);
  if (valueType === "date") return known.sqlType === "timestamptz" ? id : timestampOf(id);
  return known.sqlType === "text" ? id : `${id}::text`;
}

function paramCast(clause: LogFilterClause): string {
  if (clause.valueType === "string") return "text";
  if (clause.valueType === "date") return "timestamptz";
  return clause.column.kind === "fixed" && clause.column.sqlType === "integer" ? "bigint" : "numeric";
}

const NEGATIONS: Partial<Record<FilterOperator, FilterOperator>> = {
  isNot: "is",
  notContains: "contains",
  ne: "eq",
  notBetween: "between",
  notOn: "on",
  notLast: "last",
};

function anyOf(parts: string[]): string {
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(" OR ")})`;
}

function predicate(operator: FilterOperator, e: string, p: string[], valueType: FilterFieldType): string {
  const negated = NEGATIONS[operator];
  if (negated) return `(${e} IS NULL OR NOT (${predicate(negated, e, p, valueType)}))`;
  const [a = "", b = ""] = p;
  switch (operator) {
    case "is":
    case "eq":
      return anyOf(p.map((param) => `${e} = ${param}`));
    case "contains":
      return anyOf(p.map((param) => `strpos(lower(${e}), lower(${param})) > 0`));
    case "isSet":
      return `(${e} IS NOT NULL AND ${e} <> '')`;
    case "isNotSet":
      return `(${e} IS NULL OR ${e} = '')`;
    case "gt":
      return `${e} > ${a}`;
    case "gte":
      return `${e} >= ${a}`;
    case "lt":
    case "before":
    case "beforeLast":
      return `${e} < ${a}`;
    case "lte":
      return `${e} <= ${a}`;
    case "since":
      return `${e} >= ${a}`;
    case "between":
      return valueType === "integer" ? `(${e} BETWEEN ${a} AND ${b})` : `(${e} >= ${a} AND ${e} < ${b})`;
    case "on":
      return `(${e} >= ${a} AND ${e} < ${b})`;
    case "last":
    case "inNext":
      return `(${e} >= ${a} AND ${e} <= ${b})`;
    default:
      return fail("INVALID_OPERATOR", "", `Filter operator ${shown(operator)} is not allowed`);
  }
}

export type LogFilterSql = {
  /** Condition to put after WHERE (with the caller's own conditions ANDed); `TRUE` without filters. */
  text: string;
  values: Array<string | number>;
  /** The next free placeholder number. */
  nextIndex: number;
};

/** Renders translated filters as one condition, placeholders `$startIndex`, `$startIndex+1`, ... */
export function renderLogFilterSql(translation: LogFilterTranslation, startIndex = 1): LogFilterSql {
  if (!Number.isSafeInteger(startIndex) || startIndex < 1)
    throw new RangeError("startIndex must be a positive integer");
  const values: Array<string | number> = [];
  const parts: string[] = [];
  for (const clause of translation.clauses) {
    const cast = paramCast(clause);
    const placeholders = clause.params.map((param) => {
      values.push(param);
      return `$${startIndex + values.length - 1}::${cast}`;
    });
    parts.push(predicate(clause.operator, columnSql(clause), placeholders, clause.valueType));
  }
  return {
    text: parts.length === 0 ? "TRUE" : parts.map((part) => `(${part})`).join(" AND "),
    values,
    nextIndex: startIndex + values.length,
  };
}

/** {@link translateLogFilters} then {@link renderLogFilterSql}. */
export function buildLogFilterSql(
  filters: Filters,
  options: TranslateLogFiltersOptions & { startIndex?: number },
): LogFilterSql {
  return renderLogFilterSql(translateLogFilters(filters, options), options.startIndex ?? 1);
}
