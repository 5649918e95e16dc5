/**
 * The function library (spec §5.1). Names are case-insensitive.
 *
 * Aggregates (SUM, AVG, MIN, MAX, COUNT, D_COUNT, MED, VARIANCE, STD_DEV) run over a set of values:
 * - one argument that is not an array literal, with rows in the context: the argument evaluated over
 *   every row of the set (`SUM(duration)`);
 * - otherwise: the arguments evaluated on the current row (`SUM([1, 2, 3])`, `MAX(duration, 60)`).
 * Array values contribute their elements; null values are skipped. An empty set gives 0
 * (COUNT() with no argument counts the rows of the set).
 */

import type { FormulaValue } from "./types.ts";
import { toFormulaNumber } from "./values.ts";

export type FormulaAggregate = (values: readonly FormulaValue[]) => number;

function numbers(values: readonly FormulaValue[]): number[] {
  return values.map(toFormulaNumber);
}

function sum(values: readonly FormulaValue[]): number {
  let total = 0;
  for (const value of values) total += toFormulaNumber(value);
  return total;
}

function mean(values: readonly FormulaValue[]): number {
  return values.length === 0 ? 0 : sum(values) / values.length;
}

/** Population variance (divides by n), two-pass for accuracy. */
function variance(values: readonly FormulaValue[]): number {
  if (values.length === 0) return 0;
  const xs = numbers(values);
  let total = 0;
  for (const x of xs) total += x;
  const average = total / xs.length;
  let squares = 0;
  for (const x of xs) squares += (x - average) * (x - average);
  return squares / xs.length;
}

function median(values: readonly FormulaValue[]): number {
  if (values.length === 0) return 0;
  const xs = numbers(values).sort((a, b) => a - b);
  const middle = xs.length >> 1;
  const upper = xs[middle] as number;
  return xs.length % 2 === 1 ? upper : ((xs[middle - 1] as number) + upper) / 2;
}

function extreme(values: readonly FormulaValue[], pick: (a: number, b: number) => number): number {
  if (values.length === 0) return 0;
  let result = toFormulaNumber(values[0]);
  for (let i = 1; i < values.length; i++) result = pick(result, toFormulaNumber(values[i]));
  return result;
}

/** Distinct values: numbers and strings as they are (1 and "1" differ); arrays and objects by content. */
function distinctCount(values: readonly FormulaValue[]): number {
  const primitives = new Set<FormulaValue>();
  const structures = new Set<string>();
  for (const value of values) {
    if (typeof value !== "object" || value === null) {
      primitives.add(value);
      continue;
    }
    let key: string;
    try {
      key = JSON.stringify(value, (_key, part: unknown) => (typeof part === "bigint" ? String(part) : part));
    } catch {
      primitives.add(value); // a cyclic structure counts by identity
      continue;
    }
    structures.add(key);
  }
  return primitives.size + structures.size;
}

export const FORMULA_AGGREGATES: Readonly<Record<string, FormulaAggregate>> = {
  sum,
  avg: mean,
  min: (values) => extreme(values, Math.min),
  max: (values) => extreme(values, Math.max),
  count: (values) => values.length,
  d_count: distinctCount,
  med: median,
  variance,
  std_dev: (values) => Math.sqrt(variance(values)),
};

/** Functions that work on their arguments: ABS, IF, NOW, TIMESTAMP_DIFF. */
export const FORMULA_SCALAR_FUNCTIONS: readonly string[] = ["abs", "if", "now", "timestamp_diff"];

/** Every function name the language knows, lowercase. */
export const FORMULA_FUNCTIONS: readonly string[] = [
  "abs",
  "if",
  "sum",
  "avg",
  "min",
  "max",
  "count",
  "d_count",
  "med",
  "variance",
  "std_dev",
  "now",
  "timestamp_diff",
];

export function isFormulaAggregate(lowerName: string): boolean {
  return Object.hasOwn(FORMULA_AGGREGATES, lowerName);
}
