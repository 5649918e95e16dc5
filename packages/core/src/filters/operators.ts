/**
 * Log filter field types and operators (product spec §5.2).
 */

export const FILTER_FIELD_TYPES = ["string", "integer", "date"] as const;
export type FilterFieldType = (typeof FILTER_FIELD_TYPES)[number];

/** Field types the filter builder assumes for these fields (product spec §5.2). */
export const DEFAULT_FILTER_FIELD_TYPES: Readonly<Record<string, FilterFieldType>> = {
  direction: "string",
  type: "string",
  duration: "integer",
  transfer: "integer",
  scheduled: "string",
};

export const STRING_OPERATORS = ["is", "isNot", "contains", "notContains", "isSet", "isNotSet"] as const;
export const INTEGER_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "between", "notBetween"] as const;
export const DATE_OPERATORS = [
  "on",
  "last",
  "notLast",
  "between",
  "notBetween",
  "notOn",
  "beforeLast",
  "before",
  "since",
  "inNext",
] as const;

export type StringOperator = (typeof STRING_OPERATORS)[number];
export type IntegerOperator = (typeof INTEGER_OPERATORS)[number];
export type DateOperator = (typeof DATE_OPERATORS)[number];
export type FilterOperator = StringOperator | IntegerOperator | DateOperator;

/** Operator set of each field type, in the spec's order. */
export const FILTER_OPERATORS: Readonly<Record<FilterFieldType, readonly FilterOperator[]>> = {
  string: STRING_OPERATORS,
  integer: INTEGER_OPERATORS,
  date: DATE_OPERATORS,
};

/** The operators the filter builder offers today (product spec §5.2: only is, eq and on are enabled). */
export const ENABLED_FILTER_OPERATORS: readonly FilterOperator[] = ["is", "eq", "on"];

/** Human labels of the operators, as they read in the filter summary ("Where Duration is greater than 60"). */
export const FILTER_OPERATOR_LABELS: Readonly<Record<FilterOperator, string>> = {
  is: "is",
  isNot: "is not",
  contains: "contains",
  notContains: "does not contain",
  isSet: "is set",
  isNotSet: "is not set",
  eq: "is equal to",
  ne: "is not equal to",
  gt: "is greater than",
  gte: "is greater than or equal to",
  lt: "is less than",
  lte: "is less than or equal to",
  between: "is between",
  notBetween: "is not between",
  on: "is on",
  last: "is in the last",
  notLast: "is not in the last",
  notOn: "is not on",
  beforeLast: "is before the last",
  before: "is before",
  since: "is on or after",
  inNext: "is in the next",
};

const ALL_OPERATORS: ReadonlySet<string> = new Set([
  ...STRING_OPERATORS,
  ...INTEGER_OPERATORS,
  ...DATE_OPERATORS,
]);

export function isFilterOperator(value: unknown): value is FilterOperator {
  return typeof value === "string" && ALL_OPERATORS.has(value);
}

export function isFilterFieldType(value: unknown): value is FilterFieldType {
  return typeof value === "string" && (FILTER_FIELD_TYPES as readonly string[]).includes(value);
}

/** Whether the operator belongs to the field type's set. */
export function isOperatorOfType(operator: string, type: FilterFieldType): operator is FilterOperator {
  return (FILTER_OPERATORS[type] as readonly string[]).includes(operator);
}

/** Whether the filter builder offers this operator (is, eq, on). */
export function isOperatorEnabled(operator: string): boolean {
  return (ENABLED_FILTER_OPERATORS as readonly string[]).includes(operator);
}

/** Operators the builder offers for a field type: the enabled ones of its set. */
export function enabledOperatorsOf(type: FilterFieldType): FilterOperator[] {
  return FILTER_OPERATORS[type].filter(isOperatorEnabled);
}

/** The operator a filter has when none is given: the enabled one of its type (is, eq, on). */
export function defaultOperatorOf(type: FilterFieldType): FilterOperator {
  return type === "integer" ? "eq" : type === "date" ? "on" : "is";
}

/** Label of an operator; unknown operators read as themselves. */
export function filterOperatorLabel(operator: string): string {
  return isFilterOperator(operator) ? FILTER_OPERATOR_LABELS[operator] : operator;
}

/** Operators that take no value. */
export const VALUELESS_OPERATORS: readonly FilterOperator[] = ["isSet", "isNotSet"];

/** Operators whose value is a relative range such as `7 day`. */
export const RELATIVE_DATE_OPERATORS: readonly FilterOperator[] = ["last", "notLast", "beforeLast", "inNext"];

/** Operators whose value is a pair `[from, to]`. */
export const RANGE_OPERATORS: readonly FilterOperator[] = ["between", "notBetween"];
