import { isPlainRecord } from "../helpers/plain-record.ts";
import {
  DEFAULT_FILTER_FIELD_TYPES,
  defaultOperatorOf,
  type FilterFieldType,
  VALUELESS_OPERATORS,
} from "./operators.ts";

/**
 * Client normalisation of log filters (product spec §2.2 and §5, call catalogue §5).
 */

export type FilterScalar = string | number | boolean;
export type FilterValue = FilterScalar | FilterScalar[];
/** One normalised filter: its value and its operator (operators are checked later, by whoever applies them). */
export type FilterEntry = { value: FilterValue; op: string };
/** Normalised filters by field name, in the order they were given. */
export type Filters = Record<string, FilterEntry>;

export type NormalizeFiltersOptions = {
  /** Field types used to pick the default operator; {@link DEFAULT_FILTER_FIELD_TYPES} fill in, then string. */
  fieldTypes?: Readonly<Record<string, FilterFieldType>>;
};

const OPERATOR_SUFFIX = "Op";

/** How deep `{ value: { value: ... } }` nesting is followed before the value counts as empty. */
const MAX_VALUE_DEPTH = 8;

function normalizeScalar(value: unknown, depth = 0): FilterScalar | undefined {
  if (typeof value === "string") {
    const kept = (value.split("|")[0] ?? "").trim();
    return kept === "" ? undefined : kept;
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "boolean") return value;
  if (isPlainRecord(value) && depth < MAX_VALUE_DEPTH) return normalizeScalar(value.value, depth + 1);
  return undefined;
}

/**
 * One filter value by the client rules: a string keeps the part before the first pipe `|` (trimmed); an object
 * is replaced by its `value` field; arrays are normalised item by item; empty results (null, blank strings,
 * empty arrays, non-finite numbers) are undefined, meaning the filter is dropped.
 */
export function normalizeFilterValue(value: unknown, depth = 0): FilterValue | undefined {
  if (Array.isArray(value)) {
    const items = value.map((item) => normalizeScalar(item)).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (isPlainRecord(value))
    return depth < MAX_VALUE_DEPTH ? normalizeFilterValue(value.value, depth + 1) : undefined;
  return normalizeScalar(value);
}

/**
 * Reads a filters parameter: an object, or JSON text that may be URL-encoded (once or more). Anything that
 * is not a JSON object reads as no filters.
 */
export function parseFiltersParam(raw: unknown): Record<string, unknown> {
  if (isPlainRecord(raw)) return raw;
  if (typeof raw !== "string") return {};
  let text = raw.trim();
  for (let attempt = 0; attempt < 4 && text !== ""; attempt++) {
    try {
      const parsed: unknown = JSON.parse(text);
      return isPlainRecord(parsed) ? parsed : {};
    } catch {
      // not JSON yet: maybe URL-encoded
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return {};
    }
    if (decoded === text) return {};
    text = decoded.trim();
  }
  return {};
}

/** Type of a field for choosing its default operator. */
export function filterFieldTypeOf(
  field: string,
  fieldTypes?: Readonly<Record<string, FilterFieldType>>,
): FilterFieldType {
  return (
    (fieldTypes && Object.hasOwn(fieldTypes, field) ? fieldTypes[field] : undefined) ??
    (Object.hasOwn(DEFAULT_FILTER_FIELD_TYPES, field) ? DEFAULT_FILTER_FIELD_TYPES[field] : undefined) ??
    "string"
  );
}

/**
 * Normalises filters as the screen keeps them (`{ direction: "inbound", directionOp: "is" }`) or as the log
 * request carries them (`{ direction: { value: "inbound", op: "is" } }`), also as (URL-encoded) JSON text:
 * - a key ending in `Op` carries the operator of the key without the suffix; an entry object's own `op` is
 *   used when there is no such key; otherwise the default operator of the field's type (is, eq, on);
 * - values follow {@link normalizeFilterValue}; filters whose value is empty are dropped, except those whose
 *   operator takes no value (isSet, isNotSet), which keep the value `true` (an operator key alone suffices);
 * - other operator keys without their field are ignored. Field names are kept as given (no checks here).
 */
export function normalizeFilters(raw: unknown, options: NormalizeFiltersOptions = {}): Filters {
  const input = parseFiltersParam(raw);
  const entries = new Map<string, FilterEntry>();
  for (const key of Object.keys(input)) {
    const isOpKey = key.length > OPERATOR_SUFFIX.length && key.endsWith(OPERATOR_SUFFIX);
    const field = isOpKey ? key.slice(0, -OPERATOR_SUFFIX.length) : key;
    if (entries.has(field) || (isOpKey && Object.hasOwn(input, field))) continue;
    const rawValue = isOpKey ? undefined : input[field];
    const opKey = `${field}${OPERATOR_SUFFIX}`;
    const rawOp = Object.hasOwn(input, opKey)
      ? input[opKey]
      : isPlainRecord(rawValue)
        ? rawValue.op
        : undefined;
    const op =
      typeof rawOp === "string" && rawOp.trim() !== ""
        ? rawOp.trim()
        : defaultOperatorOf(filterFieldTypeOf(field, options.fieldTypes));
    const value = normalizeFilterValue(rawValue);
    if (value !== undefined) entries.set(field, { value, op });
    else if ((VALUELESS_OPERATORS as readonly string[]).includes(op)) entries.set(field, { value: true, op });
  }
  // fromEntries defines own properties, so a field named __proto__ stays data and never becomes a prototype.
  return Object.fromEntries(entries);
}

/** Filters in the screen's query form: each value under its field, each operator under `<field>Op`. */
export function toScreenFilters(filters: Filters): Record<string, FilterValue> {
  const out: Array<[string, FilterValue]> = [];
  for (const [field, entry] of Object.entries(filters)) {
    out.push([field, entry.value], [`${field}${OPERATOR_SUFFIX}`, entry.op]);
  }
  return Object.fromEntries(out);
}
