import { pluralize } from "../helpers/pluralize.ts";
import type { Filters, FilterValue } from "./normalize.ts";
import {
  filterOperatorLabel,
  RANGE_OPERATORS,
  RELATIVE_DATE_OPERATORS,
  VALUELESS_OPERATORS,
} from "./operators.ts";
import { parseRelativeDate } from "./relative-date.ts";

/** Fields the product itself writes to a call's data, in the words people read. */
const FIELD_TITLES: Readonly<Record<string, string>> = {
  amdDecisionMs: "AMD Decision Time (ms)",
  answeredBy: "Answered By",
  outboundCallId: "Outbound Call ID",
  endedByAgent: "Ended by Agent",
  recordingUrl: "Recording",
};

/** Words written in capitals wherever they appear in a field name. */
const ACRONYMS = new Set(["ai", "amd", "api", "id", "ip", "sip", "sms", "url", "uuid"]);

/**
 * A field's name in words, each capitalised: `fromNumber` -> `From Number`, `call_id` -> `Call ID`; known
 * abbreviations in capitals, a trailing `Ms` as the unit (`waitMs` -> `Wait (ms)`), and the product's own
 * call fields by their titles (`amdDecisionMs` -> `AMD Decision Time (ms)`).
 */
export function humanizeFieldName(field: string): string {
  const known = FIELD_TITLES[field];
  if (known) return known;
  const words = field
    .replace(/[_-]+/g, " ")
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .trim()
    .split(/\s+/)
    .map((word) =>
      ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1),
    );
  if (words.length > 1 && words.at(-1) === "Ms") words.splice(-1, 1, "(ms)");
  return words.join(" ");
}

function describeValue(op: string, value: FilterValue): string {
  if ((VALUELESS_OPERATORS as readonly string[]).includes(op)) return "";
  const items = Array.isArray(value) ? value.map(String) : [String(value)];
  if ((RANGE_OPERATORS as readonly string[]).includes(op)) return items.slice(0, 2).join(" and ");
  if ((RELATIVE_DATE_OPERATORS as readonly string[]).includes(op)) {
    const relative = parseRelativeDate(Array.isArray(value) ? value[0] : value);
    if (relative) return `${relative.amount} ${pluralize(relative.amount, relative.unit)}`;
  }
  return items.join(" or ");
}

export type DescribeFiltersOptions = {
  /** Display names of fields; other fields read as {@link humanizeFieldName}. */
  labels?: Readonly<Record<string, string>>;
};

/** One filter as text: `Duration is greater than 60`, `Timestamp is in the last 7 days`, `Cnam is set`. */
export function describeFilter(
  field: string,
  entry: Filters[string],
  options: DescribeFiltersOptions = {},
): string {
  const label =
    (options.labels && Object.hasOwn(options.labels, field) ? options.labels[field] : undefined) ??
    humanizeFieldName(field);
  const value = describeValue(entry.op, entry.value);
  return [label, filterOperatorLabel(entry.op), value].filter((part) => part !== "").join(" ");
}

/**
 * The filter summary (product spec §5.2): `Where <Field> <operator label> <value> and ...`, e.g.
 * `Where Direction is inbound and Duration is greater than 60`. Lists read `a or b`, ranges `1 and 5`,
 * relative dates `7 days`. No filters: an empty string.
 */
export function describeFilters(filters: Filters, options: DescribeFiltersOptions = {}): string {
  const parts = Object.entries(filters).map(([field, entry]) => describeFilter(field, entry, options));
  return parts.length === 0 ? "" : `Where ${parts.join(" and ")}`;
}
