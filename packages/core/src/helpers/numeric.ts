/** A decimal number: optional sign, digits with an optional fraction (or a bare fraction), optional exponent. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * True when the value is a string that parses as a finite decimal number (product spec §5).
 * Surrounding whitespace is allowed; empty strings, `NaN`, `Infinity`, hex and trailing garbage are not numbers.
 */
export function isNumericString(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const text = value.trim();
  return DECIMAL.test(text) && Number.isFinite(Number(text));
}
