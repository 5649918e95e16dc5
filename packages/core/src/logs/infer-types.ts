import type { FilterFieldType } from "../filters/operators.ts";
import { LOG_ROW_FIELD_TYPES } from "./log-fields.ts";

/** A whole or decimal number as text, without leading zeros (so `02134` stays a string). */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** A calendar date, optionally with a time and zone: `2024-05-01`, `2024-05-01T10:00:00Z`, `2024-05-01 10:00`. */
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** Type of one sample value, or null when it says nothing (null, undefined, blank). */
export function inferValueType(value: unknown): FilterFieldType | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "string" : "date";
  if (typeof value === "number") return Number.isFinite(value) ? "integer" : "string";
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") return null;
    if (NUMBER_TEXT.test(text)) return "integer";
    if (DATE_TEXT.test(text) && !Number.isNaN(Date.parse(text.replace(" ", "T")))) return "date";
    return "string";
  }
  return "string";
}

/**
 * Type of a dynamic field from sample values (product spec §3): `integer` when every informative sample is a
 * number (numbers or numeric text; the numeric filter type also covers decimals), `date` when every one is a
 * date, otherwise — or with no informative sample — `string`.
 */
export function inferFieldType(values: Iterable<unknown>): FilterFieldType {
  let found: FilterFieldType | null = null;
  for (const value of values) {
    const type = inferValueType(value);
    if (type === null) continue;
    if (type === "string" || (found !== null && found !== type)) return "string";
    found = type;
  }
  return found ?? "string";
}

/**
 * Types of every field seen in sample log rows: fixed fields keep their declared types, every other field is
 * inferred from its values. Rows may carry dynamic fields at the top level or inside a `data` object.
 */
export function inferLogFieldTypes(
  rows: Iterable<Readonly<Record<string, unknown>>>,
): Record<string, FilterFieldType> {
  const samples = new Map<string, unknown[]>();
  const add = (field: string, value: unknown) => {
    const list = samples.get(field);
    if (list) list.push(value);
    else samples.set(field, [value]);
  };
  for (const row of rows) {
    for (const [field, value] of Object.entries(row)) {
      if (field === "data" && typeof value === "object" && value !== null && !Array.isArray(value)) {
        for (const [key, inner] of Object.entries(value)) add(key, inner);
      } else {
        add(field, value);
      }
    }
  }
  const types: Array<[string, FilterFieldType]> = [];
  for (const [field, values] of samples) {
    const fixed = Object.hasOwn(LOG_ROW_FIELD_TYPES, field)
      ? LOG_ROW_FIELD_TYPES[field as keyof typeof LOG_ROW_FIELD_TYPES]
      : undefined;
    types.push([field, fixed ?? inferFieldType(values)]);
  }
  return Object.fromEntries(types);
}
