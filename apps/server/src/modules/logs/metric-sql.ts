import {
  type FormulaNode,
  isLogFixedField,
  LOG_COLUMNS,
  LOG_DATA_KEY_PATTERN,
  LOG_FIXED_FIELDS,
  type LogFixedField,
  type MetricAggregation,
  parseFormula,
} from "@switchboard/core";
import { type SQL, sql } from "drizzle-orm";
import { ident, param } from "./sql.ts";

/**
 * A metric formula (spec §5.1) as SQL over `conversation_logs`, so a metric aggregates in the database
 * instead of shipping rows to the server. Only formulas whose meaning SQL reproduces exactly are translated:
 * literals, fields, arithmetic, comparisons, and/or/not. Everything else (functions, in, between, like,
 * regex, is null, null) answers null and the caller falls back to core's compiled evaluator over the rows.
 *
 * The SQL follows core's value rules (values.ts): arithmetic reads text as numbers (decimal text,
 * "true"/"false", blank as 0; other text 0), comparisons compare two strings as strings and everything else
 * as numbers (a non-numeric string compares false), division and modulo by zero give 0, missing fields read
 * 0. Two documented differences, both on text no log field holds in practice: text in hexadecimal or
 * "Infinity" reads as not a number, and dynamic field names match exactly (core also matches them ignoring
 * case). Fixed fields are matched ignoring case, as core does.
 */

type Kind = "num" | "bool" | "text" | "json";
/**
 * A translated expression. num: float8 (SQL NULL is a formula null: only nullable integer columns); bool: a
 * never-null boolean (1/0); text: text (NULL is a formula null); json: jsonb (SQL NULL a missing field, read
 * 0; jsonb null a formula null). `literal` keeps a string literal's text for static decisions. Built with
 * Drizzle's `sql` template: literals and data keys are parameters, columns identifiers.
 */
type Expr = { sql: SQL; kind: Kind; nullable: boolean; literal?: string };
/** A condition known when the statement is built (true/false), or decided by SQL at run time. */
type Condition = boolean | SQL;

/** Numeric text core reads with Number(): bounded so the cast can never overflow float8. */
const NUMERIC_TEXT = sql.raw(
  "'^[[:space:]]*[-+]?([0-9]{1,200}([.][0-9]{0,200})?|[.][0-9]{1,200})([eE][-+]?[0-9]{1,2})?[[:space:]]*$'",
);
const ZERO = sql`0::float8`;

/** Core's stringToNumberOrNaN in SQL: NULL stands for NaN. */
function textNumber(text: SQL): SQL {
  // transfer holds "1" or "0": read those without the pattern.
  return sql`(CASE WHEN ${text} = '1' THEN 1::float8 WHEN ${text} = '0' THEN 0::float8 WHEN ${text} ~ ${NUMERIC_TEXT} THEN (${text})::float8 WHEN ${text} !~ '[^[:space:]]' THEN 0::float8 WHEN lower(btrim(${text})) = 'true' THEN 1::float8 WHEN lower(btrim(${text})) = 'false' THEN 0::float8 END)`;
}

/** A jsonb value read as core's toComparableNumber: NULL for NaN (objects, arrays, non-numeric text). */
function jsonNumber(json: SQL): SQL {
  return sql`(CASE jsonb_typeof(${json}) WHEN 'number' THEN (${json})::float8 WHEN 'boolean' THEN (CASE WHEN ${json} = 'true'::jsonb THEN 1 ELSE 0 END)::float8 WHEN 'string' THEN ${textNumber(sql`(${json} #>> '{}')`)} WHEN 'object' THEN NULL::float8 WHEN 'array' THEN NULL::float8 ELSE 0::float8 END)`;
}

/** Core's toComparableNumber (NULL = NaN). */
function comparable(e: Expr): SQL {
  switch (e.kind) {
    case "num":
      return e.nullable ? sql`coalesce(${e.sql}, 0::float8)` : e.sql;
    case "bool":
      return sql`(${e.sql})::int::float8`;
    case "text":
      return e.nullable
        ? sql`(CASE WHEN ${e.sql} IS NULL THEN 0::float8 ELSE ${textNumber(e.sql)} END)`
        : textNumber(e.sql);
    default:
      return jsonNumber(e.sql);
  }
}

/** Core's toFormulaNumber (never NaN, never null). */
function numeric(e: Expr): SQL {
  if (e.kind === "num") return e.nullable ? sql`coalesce(${e.sql}, 0::float8)` : e.sql;
  if (e.kind === "bool") return sql`(${e.sql})::int::float8`;
  return sql`coalesce(${comparable(e)}, 0::float8)`;
}

function truthyText(text: SQL): SQL {
  const number = textNumber(text);
  return sql`(CASE WHEN ${text} IS NULL THEN false WHEN ${number} IS NOT NULL THEN ${number} <> 0 ELSE ${text} ~ '[^[:space:]]' END)`;
}

/** Core's isFormulaTruthy, as a never-null boolean. */
function truthy(e: Expr): SQL {
  switch (e.kind) {
    case "num":
      return sql`coalesce(${e.sql} <> 0, false)`;
    case "bool":
      return e.sql;
    case "text":
      return truthyText(e.sql);
    default:
      return sql`(CASE jsonb_typeof(${e.sql}) WHEN 'number' THEN (${e.sql})::float8 <> 0 WHEN 'boolean' THEN ${e.sql} = 'true'::jsonb WHEN 'string' THEN ${truthyText(sql`(${e.sql} #>> '{}')`)} WHEN 'object' THEN true WHEN 'array' THEN jsonb_array_length(${e.sql}) > 0 ELSE false END)`;
  }
}

/** Whether the value is a string at run time. */
function isString(e: Expr): Condition {
  if (e.kind === "num" || e.kind === "bool") return false;
  if (e.kind === "text") return e.literal !== undefined || !e.nullable ? true : sql`(${e.sql} IS NOT NULL)`;
  return sql`coalesce(jsonb_typeof(${e.sql}) = 'string', false)`;
}

function textOf(e: Expr): SQL {
  return e.kind === "json" ? sql`(${e.sql} #>> '{}')` : e.sql;
}

/** The value is not a formula null (for avg, which skips nulls). */
function notNull(e: Expr): Condition {
  if (e.kind === "num" || e.kind === "text") return e.nullable ? sql`(${e.sql} IS NOT NULL)` : true;
  if (e.kind === "bool") return true;
  return sql`coalesce(jsonb_typeof(${e.sql}) <> 'null', true)`;
}

class Untranslatable extends Error {}

const FIXED_BY_LOWER = new Map<string, LogFixedField>(
  LOG_FIXED_FIELDS.map((field) => [field.toLowerCase(), field]),
);
const NULLABLE_COLUMNS = new Set([
  "account_id",
  "agent_id",
  "account_name",
  "from_number",
  "to_number",
  "cnam",
  "room_id",
  "direction",
  "call_id",
]);

function field(name: string): Expr {
  const fixed = isLogFixedField(name) ? name : FIXED_BY_LOWER.get(name.toLowerCase());
  if (fixed !== undefined) {
    const column = LOG_COLUMNS[fixed];
    const id = ident(column.name);
    if (column.sqlType === "timestamptz")
      return { sql: sql`(extract(epoch from ${id}) * 1000)::float8`, kind: "num", nullable: false };
    if (column.sqlType === "integer")
      return { sql: sql`${id}::float8`, kind: "num", nullable: NULLABLE_COLUMNS.has(column.name) };
    return { sql: id, kind: "text", nullable: NULLABLE_COLUMNS.has(column.name) };
  }
  if (!LOG_DATA_KEY_PATTERN.test(name)) throw new Untranslatable(name);
  // The key is a value: a parameter of the jsonb operator, never SQL text.
  return { sql: sql`(data -> ${param(name, "text")})`, kind: "json", nullable: true };
}

function compare(operator: string, a: Expr, b: Expr): SQL {
  const both = [isString(a), isString(b)];
  const dynamic = both.filter((part): part is SQL => typeof part !== "boolean");
  const stringCase: Condition = both.includes(false)
    ? false
    : dynamic.length === 0
      ? true
      : sql.join(dynamic, sql` AND `);
  const sqlOperator = sql.raw(operator === "!=" ? "=" : operator);
  const collate = operator === "=" || operator === "!=" ? sql`` : sql` COLLATE "C"`;
  const asText = sql`(${textOf(a)}${collate} ${sqlOperator} ${textOf(b)}${collate})`;
  const asNumber = sql`coalesce(${comparable(a)} ${sqlOperator} ${comparable(b)}, false)`;
  const result =
    stringCase === false
      ? asNumber
      : stringCase === true
        ? asText
        : sql`(CASE WHEN ${stringCase} THEN ${asText} ELSE ${asNumber} END)`;
  return operator === "!=" ? sql`(NOT ${result})` : sql`(${result})`;
}

/** The arithmetic and comparison operators the translation writes as they are (a closed list). */
const ARITHMETIC = new Set(["+", "-", "*"]);
const COMPARISONS = new Set(["=", "!=", "<", "<=", ">", ">="]);

function translate(node: FormulaNode): Expr {
  switch (node.type) {
    case "number":
      return { sql: param(node.value, "float8"), kind: "num", nullable: false };
    case "string":
      return { sql: param(node.value, "text"), kind: "text", nullable: false, literal: node.value };
    case "boolean":
      return { sql: node.value ? sql`1::float8` : ZERO, kind: "num", nullable: false };
    case "var":
      return field(node.name);
    case "unary": {
      const operand = translate(node.operand);
      if (node.operator === "-") return { sql: sql`(-${numeric(operand)})`, kind: "num", nullable: false };
      if (node.operator === "+") return { sql: numeric(operand), kind: "num", nullable: false };
      return { sql: sql`(NOT ${truthy(operand)})`, kind: "bool", nullable: false };
    }
    case "binary": {
      const a = translate(node.left);
      const b = translate(node.right);
      if (ARITHMETIC.has(node.operator))
        return {
          sql: sql`(${numeric(a)} ${sql.raw(node.operator)} ${numeric(b)})`,
          kind: "num",
          nullable: false,
        };
      if (COMPARISONS.has(node.operator))
        return { sql: compare(node.operator, a, b), kind: "bool", nullable: false };
      switch (node.operator) {
        case "/": {
          const divisor = numeric(b);
          return {
            sql: sql`(CASE WHEN ${divisor} = 0 THEN 0::float8 ELSE ${numeric(a)} / ${divisor} END)`,
            kind: "num",
            nullable: false,
          };
        }
        case "%": {
          const x = numeric(a);
          const y = numeric(b);
          return {
            sql: sql`(CASE WHEN ${y} = 0 THEN 0::float8 ELSE ${x} - ${y} * trunc(${x} / ${y}) END)`,
            kind: "num",
            nullable: false,
          };
        }
        case "and":
          return { sql: sql`(${truthy(a)} AND ${truthy(b)})`, kind: "bool", nullable: false };
        case "or":
          return { sql: sql`(${truthy(a)} OR ${truthy(b)})`, kind: "bool", nullable: false };
        default:
          throw new Untranslatable(node.operator);
      }
    }
    default:
      throw new Untranslatable(node.type);
  }
}

/** `where AND condition`, or `where` alone when the condition always holds. */
function andAlso(where: SQL, condition: Condition): SQL {
  return condition === true ? where : sql`${where} AND ${condition === false ? sql`FALSE` : condition}`;
}

/** The aggregates of one metric: per group, `numerator` and `denominator` (see {@link metricAggregateSql}). */
export type MetricSql = {
  /** SQL aggregate of the numerator (sum of values, or the count of truthy rows). */
  numerator: SQL;
  /** SQL aggregate of the rows averaged over (avg only). */
  denominator: SQL | null;
};

function parsed(formula: string): FormulaNode | null {
  try {
    return parseFormula(formula.trim() === "" ? "1" : formula);
  } catch {
    return null;
  }
}

function translated(node: FormulaNode): Expr | null {
  try {
    return translate(node);
  } catch (error) {
    if (!(error instanceof Untranslatable)) throw error;
    return null;
  }
}

/**
 * SQL aggregates computing `aggregation` of `formula` over the rows that satisfy `where` (a condition), or
 * null when the formula is outside the translated subset (or does not parse: the evaluator then reports
 * the formula's own error).
 */
export function metricAggregateSql(
  formula: string,
  aggregation: MetricAggregation,
  where: SQL,
): MetricSql | null {
  const node = parsed(formula);
  const e = node && translated(node);
  if (!e) return null;
  switch (aggregation) {
    case "count":
      return { numerator: sql`count(*) FILTER (WHERE ${where} AND ${truthy(e)})::float8`, denominator: null };
    case "avg": {
      const condition = andAlso(where, notNull(e));
      return {
        numerator: sql`coalesce(sum(${numeric(e)}) FILTER (WHERE ${condition}), 0)::float8`,
        denominator: sql`count(*) FILTER (WHERE ${condition})::float8`,
      };
    }
    default:
      return {
        numerator: sql`coalesce(sum(${numeric(e)}) FILTER (WHERE ${where}), 0)::float8`,
        denominator: null,
      };
  }
}

/** Data keys `conversation_log_rollups.data` keeps (migration 0031): filters and formulas on them roll up. */
export const ROLLUP_DATA_KEYS: ReadonlySet<string> = new Set(["appointmentBooked", "taskCompleted"]);
/** Fixed fields that are dimensions of the rollup (same column names as conversation_logs). */
export const ROLLUP_FIXED_FIELDS: ReadonlySet<LogFixedField> = new Set([
  "accountId",
  "agentId",
  "direction",
  "transfer",
]);
/** Width of a rollup bucket: every real UTC offset is a whole number of buckets. */
export const ROLLUP_BUCKET_MS = 15 * 60_000;

/** The fields a formula reads, or null when it holds anything but literals, fields and operators. */
function formulaFields(node: FormulaNode, into: string[]): string[] | null {
  switch (node.type) {
    case "number":
    case "string":
    case "boolean":
      return into;
    case "var":
      into.push(node.name);
      return into;
    case "unary":
      return formulaFields(node.operand, into);
    case "binary":
      return formulaFields(node.left, into) && formulaFields(node.right, into);
    default:
      return null;
  }
}

function fixedOf(name: string): LogFixedField | undefined {
  return isLogFixedField(name) ? name : FIXED_BY_LOWER.get(name.toLowerCase());
}

/**
 * How the rollup answers a metric exactly (each group row stands for `n` log rows), or null when it cannot:
 * `duration` for the duration total/average (`duration`, sum or avg: the groups' duration sums),
 * `answered` for the answered count or share (`duration > 0`, any aggregation: the groups' answered
 * counts), `dimensions` when the formula reads only rollup dimensions (its value is the same for every row
 * of a group, so it is evaluated once per group and weighted by `n`).
 */
export function rollupKind(
  formula: string,
  aggregation: MetricAggregation,
): "duration" | "answered" | "dimensions" | null {
  const node = parsed(formula);
  if (!node) return null;
  const isDuration = (n: FormulaNode) => n.type === "var" && fixedOf(n.name) === "duration";
  if (isDuration(node) && aggregation !== "count") return "duration";
  if (
    node.type === "binary" &&
    node.operator === ">" &&
    isDuration(node.left) &&
    node.right.type === "number" &&
    node.right.value === 0
  )
    return "answered";
  const fields = formulaFields(node, []);
  if (fields === null) return null;
  for (const name of fields) {
    const fixed = fixedOf(name);
    if (fixed !== undefined ? !ROLLUP_FIXED_FIELDS.has(fixed) : !ROLLUP_DATA_KEYS.has(name)) return null;
  }
  return "dimensions";
}
