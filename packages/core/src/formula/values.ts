/**
 * Value semantics shared by the interpreter and the compiler, so both compute exactly the same thing.
 *
 * - Arithmetic reads every operand as a number: numbers as they are (NaN as 0), booleans 1/0, null and
 *   missing values 0, numeric strings their number, "true"/"false" 1/0, other strings 0, dates their ms.
 * - Comparisons compare two strings as strings (code-unit order, case-sensitive); otherwise as numbers,
 *   where a non-numeric string is not comparable (every comparison false, `!=` true).
 * - Truthiness: non-zero numbers; strings that read as a non-zero number, or non-empty non-numeric
 *   strings other than "false"; non-empty arrays; objects. null and missing values are false.
 */
import type { FormulaRow, FormulaValue } from "./types.ts";

const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether `name` is inherited by plain objects (`constructor`, `toString`, `__proto__`, ...). */
export function isInheritedName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/** A row or object field as stored: own properties only; undefined when absent. */
export function ownField(source: unknown, key: string): unknown {
  if (typeof source !== "object" || source === null) return undefined;
  return Object.hasOwn(source, key) ? (source as Record<string, unknown>)[key] : undefined;
}

/**
 * Key of `row` equal to `name` ignoring case (field names are case-insensitive, as in the validator);
 * undefined when there is none.
 */
export function findFieldKey(row: FormulaRow, name: string, lowerName: string): string | undefined {
  // for-in walks V8's cached key list of the row's shape without allocating (Object.keys copies it on every
  // call: a metric reading a field most rows lack, such as taskCompleted, paid that on every row).
  for (const key in row) {
    if (
      key.length === lowerName.length &&
      key !== name &&
      key.toLowerCase() === lowerName &&
      Object.hasOwn(row, key)
    )
      return key;
  }
  return undefined;
}

/**
 * Raw value of field `name` of `row` (undefined when missing): the exact key first (names inherited
 * from Object.prototype only as own properties), then an own key differing only in case.
 */
export function readField(row: FormulaRow, name: string): unknown {
  const value = PROTOTYPE_NAMES.has(name) ? ownField(row, name) : row[name];
  if (value !== undefined) return value;
  const key = findFieldKey(row, name, name.toLowerCase());
  return key === undefined ? undefined : row[key];
}

/**
 * readField for one fixed name, prepared once (a compiled formula reads the same fields on every row): the
 * lower-case name is computed here, not per row, and a missing exact key costs one walk of the row's keys.
 */
export function fieldReader(name: string): (row: FormulaRow) => unknown {
  const lowerName = name.toLowerCase();
  if (PROTOTYPE_NAMES.has(name))
    return (row) => {
      const value = ownField(row, name);
      if (value !== undefined) return value;
      const key = findFieldKey(row, name, lowerName);
      return key === undefined ? undefined : row[key];
    };
  return (row) => {
    const value = row[name];
    if (value !== undefined) return value;
    const key = findFieldKey(row, name, lowerName);
    return key === undefined ? undefined : row[key];
  };
}

/** Turns a stored value into a formula value: booleans 1/0, missing 0, dates ms, bigints numbers. */
export function normalizeFormulaValue(value: unknown): FormulaValue {
  switch (typeof value) {
    case "number":
    case "string":
      return value;
    case "undefined":
      return 0;
    case "boolean":
      return value ? 1 : 0;
    case "bigint":
      return Number(value);
    case "object":
      if (value === null) return null;
      if (value instanceof Date) return value.getTime();
      return value as FormulaValue;
    default:
      return 0;
  }
}

/** A string read as a number; NaN when it is not numeric ("" reads 0, "true"/"false" 1/0). */
export function stringToNumberOrNaN(text: string): number {
  if (text === "true") return 1;
  if (text === "false") return 0;
  const number = Number(text);
  if (!Number.isNaN(number)) return number;
  const word = text.trim().toLowerCase();
  if (word === "true") return 1;
  if (word === "false") return 0;
  return Number.NaN;
}

/** A value read as a number for comparison: NaN when it is not comparable as a number. */
export function toComparableNumber(value: unknown): number {
  switch (typeof value) {
    case "number":
      return value;
    case "string":
      return stringToNumberOrNaN(value);
    case "boolean":
      return value ? 1 : 0;
    case "bigint":
      return Number(value);
    case "undefined":
      return 0;
    case "object":
      if (value === null) return 0;
      if (value instanceof Date) return value.getTime();
      return Number.NaN;
    default:
      return Number.NaN;
  }
}

/** A value read as a number for arithmetic and aggregation (never NaN). */
export function toFormulaNumber(value: unknown): number {
  const number = toComparableNumber(value);
  return !Number.isNaN(number) ? number : 0;
}

/** A value read as a timestamp in ms: numbers and numeric strings as they are, date strings parsed. */
export function toTimestamp(value: unknown): number {
  if (typeof value === "string") {
    const number = stringToNumberOrNaN(value);
    if (!Number.isNaN(number)) return number;
    const parsed = Date.parse(value);
    return !Number.isNaN(parsed) ? parsed : 0;
  }
  return toFormulaNumber(value);
}

export function isFormulaTruthy(value: unknown): boolean {
  switch (typeof value) {
    case "number":
      return value !== 0 && !Number.isNaN(value);
    case "string": {
      const number = stringToNumberOrNaN(value);
      return !Number.isNaN(number) ? number !== 0 : value.trim() !== "";
    }
    case "boolean":
      return value;
    case "bigint":
      return value !== 0n;
    case "object":
      if (value === null) return false;
      if (Array.isArray(value)) return value.length > 0;
      if (value instanceof Date) return value.getTime() !== 0;
      return true;
    default:
      return false;
  }
}

/** Three-way comparison: negative, 0, positive, or NaN when the two are not comparable. */
export function compareFormulaValues(left: unknown, right: unknown): number {
  if (typeof left === "string" && typeof right === "string") {
    return left < right ? -1 : left > right ? 1 : 0;
  }
  const a = toComparableNumber(left);
  const b = toComparableNumber(right);
  return a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN;
}

export function formulaEquals(left: unknown, right: unknown): boolean {
  return compareFormulaValues(left, right) === 0;
}

/** Text of a value for like/regex: strings as they are, numbers printed, null/missing empty. */
export function toFormulaText(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "bigint":
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    default:
      return "";
  }
}

/**
 * SQL LIKE on already lowercased text: `%` matches any run of characters, `_` exactly one.
 * Linear backtracking on the last `%` only, so no pattern can make it slow (O(text × pattern)).
 */
export function matchLikePattern(text: string, pattern: string): boolean {
  let t = 0;
  let p = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const char = pattern[p];
    if (char === "%") {
      starP = p++;
      starT = t;
    } else if (char !== undefined && (char === "_" || char === text[t])) {
      p++;
      t++;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (pattern[p] === "%") p++;
  return p === pattern.length;
}

/** `value like pattern`, case-insensitive. */
export function formulaLike(value: unknown, pattern: unknown): boolean {
  return matchLikePattern(toFormulaText(value).toLowerCase(), toFormulaText(pattern).toLowerCase());
}

/** The regular expression of a pattern, or null when the pattern is not a valid expression. */
export function compileFormulaRegex(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

/** `value regex pattern`: case-sensitive search; an invalid pattern matches nothing. */
export function formulaRegex(value: unknown, pattern: unknown): boolean {
  const regex = compileFormulaRegex(toFormulaText(pattern));
  return regex?.test(toFormulaText(value)) === true;
}

/** Arithmetic of the binary operators; division or modulo by zero gives 0. */
export function formulaArithmetic(operator: string, a: number, b: number): number {
  switch (operator) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "/":
      return b === 0 ? 0 : a / b;
    default:
      return b === 0 ? 0 : a % b;
  }
}

/**
 * Appends the values an aggregate runs over: arrays contribute their elements (one level), null and
 * missing values are skipped.
 */
export function collectAggregateValue(out: FormulaValue[], value: unknown): void {
  if (Array.isArray(value)) {
    for (const element of value as readonly unknown[]) {
      const normalized = normalizeFormulaValue(element);
      if (normalized !== null && element !== undefined) out.push(normalized);
    }
  } else if (value !== null && value !== undefined) {
    out.push(normalizeFormulaValue(value));
  }
}
