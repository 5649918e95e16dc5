import {
  type FilterFieldType,
  type FilterOperator,
  LOG_COLUMNS,
  LOG_DATA_COLUMN,
  LOG_DATA_KEY_PATTERN,
  type LogFilterClause,
  LogFilterError,
  type LogFilterTranslation,
} from "@switchboard/core";
import { type SQL, sql } from "drizzle-orm";
import { ident, param, type SqlCast } from "./sql.ts";

/**
 * Core's translated log filters (clauses: column, operator, resolved values) as one SQL condition over
 * `conversation_logs`, built with Drizzle's `sql` template: columns are identifiers, and every value and
 * every data key is a parameter (`data ->> $n`), so no caller-supplied text enters the statement. The
 * semantics are core's (see translateLogFilters): negated operators also match a missing field, `contains`
 * is case-insensitive and literal, text that does not hold a number or a date reads as missing.
 */

/** Numeric text: optional sign, at most 30 digits before and 30 after the point. */
const NUMERIC_TEXT = sql.raw(
  "'^[[:space:]]*[-+]?([0-9]{1,30}([.][0-9]{0,30})?|[.][0-9]{1,30})[[:space:]]*$'",
);
/** Calendar date with optional time and zone, in ranges PostgreSQL accepts. */
const TIMESTAMP_TEXT = sql.raw(
  "'^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])" +
    "([T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]{1,6})?)?(Z|[+-](0[0-9]|1[0-4])(:?[0-5][0-9])?)?)?$'",
);

/**
 * Text as a number, or NULL when it is not one (never a cast error). Plain digits (1 to 30 of them, the
 * common case: transfer is "0" or "1") are told by ltrim, which costs a fraction of the regex: PostgreSQL
 * builds the regex's automaton afresh on every call, and its bounded repeats make that about 2-7 µs a row
 * (the transfer filter's count spent 10 ms on 2,400 rollup rows). Anything else still goes by the regex,
 * so what reads as a number is unchanged.
 */
function numericOf(text: SQL): SQL {
  return sql`(CASE WHEN ${text} <> '' AND length(${text}) <= 30 AND ltrim(${text}, '0123456789') = '' THEN (${text})::numeric WHEN ${text} ~ ${NUMERIC_TEXT} THEN (${text})::numeric END)`;
}

/** Text as a timestamp, or NULL when it is not a real date (never a cast error: day-of-month checked too). */
function timestampOf(text: SQL): SQL {
  const year = sql`substr(${text}, 1, 4)::int`;
  const leap = sql`((${year} % 4 = 0 AND ${year} % 100 <> 0) OR ${year} % 400 = 0)`;
  const monthDays = sql`(CASE substr(${text}, 6, 2) WHEN '02' THEN (CASE WHEN ${leap} THEN 29 ELSE 28 END) WHEN '04' THEN 30 WHEN '06' THEN 30 WHEN '09' THEN 30 WHEN '11' THEN 30 ELSE 31 END)`;
  return sql`(CASE WHEN ${text} ~ ${TIMESTAMP_TEXT} THEN (CASE WHEN substr(${text}, 9, 2)::int <= ${monthDays} THEN (${text})::timestamptz END) END)`;
}

function refuse(field: string, shownName: string): never {
  throw new LogFilterError(
    "INVALID_FIELD",
    field,
    `Filter field ${JSON.stringify(shownName)} is not allowed`,
  );
}

/** A data key as text of the row: the key is a parameter (`data ->> $n`), never SQL text. */
export function dataTextSql(key: string, alias?: string): SQL {
  const column = alias
    ? sql`${sql.identifier(alias)}.${sql.identifier(LOG_DATA_COLUMN)}`
    : sql.identifier(LOG_DATA_COLUMN);
  return sql`(${column} ->> ${param(key, "text")})`;
}

function columnSql(clause: LogFilterClause): SQL {
  const { column, valueType } = clause;
  if (column.kind === "data") {
    // Core accepts only keys of the pattern; checked again, though the key is a parameter either way.
    if (!LOG_DATA_KEY_PATTERN.test(column.key)) refuse(clause.field, column.key.slice(0, 64));
    const text = dataTextSql(column.key);
    return valueType === "integer" ? numericOf(text) : valueType === "date" ? timestampOf(text) : text;
  }
  const known = Object.hasOwn(LOG_COLUMNS, column.field) ? LOG_COLUMNS[column.field] : undefined;
  if (!known || known.name !== column.name || known.sqlType !== column.sqlType)
    refuse(clause.field, clause.field.slice(0, 64));
  const id = ident(known.name);
  if (valueType === "integer") return known.sqlType === "integer" ? id : numericOf(id);
  if (valueType === "date") return known.sqlType === "timestamptz" ? id : timestampOf(id);
  return known.sqlType === "text" ? id : sql`${id}::text`;
}

function paramCast(clause: LogFilterClause): SqlCast {
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

function anyOf(parts: SQL[]): SQL {
  return parts.length === 1 ? (parts[0] as SQL) : sql`(${sql.join(parts, sql` OR `)})`;
}

function predicate(operator: FilterOperator, e: SQL, p: SQL[], valueType: FilterFieldType): SQL {
  const negated = NEGATIONS[operator];
  if (negated) return sql`(${e} IS NULL OR NOT (${predicate(negated, e, p, valueType)}))`;
  const [a = sql`NULL`, b = sql`NULL`] = p;
  switch (operator) {
    case "is":
    case "eq":
      return anyOf(p.map((value) => sql`${e} = ${value}`));
    case "contains":
      return anyOf(p.map((value) => sql`strpos(lower(${e}), lower(${value})) > 0`));
    case "isSet":
      return sql`(${e} IS NOT NULL AND ${e} <> '')`;
    case "isNotSet":
      return sql`(${e} IS NULL OR ${e} = '')`;
    case "gt":
      return sql`${e} > ${a}`;
    case "gte":
      return sql`${e} >= ${a}`;
    case "lt":
    case "before":
    case "beforeLast":
      return sql`${e} < ${a}`;
    case "lte":
      return sql`${e} <= ${a}`;
    case "since":
      return sql`${e} >= ${a}`;
    case "between":
      return valueType === "integer"
        ? sql`(${e} BETWEEN ${a} AND ${b})`
        : sql`(${e} >= ${a} AND ${e} < ${b})`;
    case "on":
      return sql`(${e} >= ${a} AND ${e} < ${b})`;
    case "last":
    case "inNext":
      return sql`(${e} >= ${a} AND ${e} <= ${b})`;
    default:
      throw new LogFilterError(
        "INVALID_OPERATOR",
        "",
        `Filter operator ${JSON.stringify(operator)} is not allowed`,
      );
  }
}

/** The clauses ANDed as one condition to put after WHERE; `TRUE` without clauses. */
export function logFilterSql(translation: LogFilterTranslation): SQL {
  const parts = translation.clauses.map((clause) => {
    const cast = paramCast(clause);
    const values = clause.params.map((value) => param(value, cast));
    return sql`(${predicate(clause.operator, columnSql(clause), values, clause.valueType)})`;
  });
  return parts.length === 0 ? sql`TRUE` : sql.join(parts, sql` AND `);
}
