import { DAY_MS, DEFAULT_LOG_RANGE_DAYS, LOG_EXPORT_PAGE, PAGE_SIZES } from "../constants.ts";
import { type Filters, normalizeFilters, toScreenFilters } from "../filters/normalize.ts";
import type { FilterFieldType } from "../filters/operators.ts";
import { type DateRange, lastRange, parseRelativeDate } from "../filters/relative-date.ts";
import { parseIsoDay } from "../helpers/calendar-day.ts";
import { isLogChannel, type LogChannel } from "./log-channels.ts";
import { LOG_REQUIRED_FIELDS, logFilterFieldTypes } from "./log-fields.ts";

/**
 * Query rules of the conversation logs screen (product spec §2.2, §5) and of the log request (call catalogue §5).
 */

export type LogFormat = "json" | "csv";

/** State of the logs screen as its query string carries it. */
export type LogScreenState = {
  filters: Filters;
  /** Shown columns, in order. */
  fields: string[];
  page?: number;
  pageSize?: number;
  /** Time window of the screen, kept as given (see {@link resolveLogDateWindow}). */
  dateFilter?: string;
  /** The conversations listed: calls (`voice`) when absent. */
  channel?: LogChannel;
};

export type QueryInput = string | Readonly<Record<string, string | readonly string[] | null | undefined>>;

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * Reads a query string (`?a=1&b=2`, leading `?` optional, `+` as space; malformed escapes kept as typed) or
 * a query object (first item of a list). Repeated keys: the first wins.
 */
export function parseQueryString(input: QueryInput): Record<string, string> {
  const entries: Array<[string, string]> = [];
  const seen = new Set<string>();
  const add = (key: string, value: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    entries.push([key, value]);
  };
  if (typeof input === "string") {
    for (const part of input.replace(/^\?/, "").split("&")) {
      if (part === "") continue;
      const at = part.indexOf("=");
      const key = decodeComponent(at === -1 ? part : part.slice(0, at));
      add(key, at === -1 ? "" : decodeComponent(part.slice(at + 1)));
    }
  } else {
    for (const [key, value] of Object.entries(input)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === "string") add(key, first);
    }
  }
  return Object.fromEntries(entries);
}

/** A positive whole number (number or digits), else undefined: how log page and pageSize count (spec §5). */
export function parsePositiveInt(value: unknown): number | undefined {
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d+$/.test(value.trim())
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** A comma list of column names: trimmed, empties and repeats dropped. */
export function parseFieldList(value: string | readonly string[] | null | undefined): string[] {
  const items = typeof value === "string" ? value.split(",") : (value ?? []);
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ""))];
}

/** The fields of a log request: the shown ones plus uuid, callId, accountId, agentId, roomId when missing. */
export function withRequiredLogFields(fields: readonly string[]): string[] {
  const list = parseFieldList(fields);
  for (const field of LOG_REQUIRED_FIELDS) if (!list.includes(field)) list.push(field);
  return list;
}

/**
 * {@link normalizeFilters} with the log field types choosing default operators (fixed fields by their own
 * types, dynamic fields by the given ones): the form to hand to {@link translateLogFilters}.
 */
export function normalizeLogFilters(
  raw: unknown,
  dataTypes?: Readonly<Record<string, FilterFieldType>>,
): Filters {
  return normalizeFilters(raw, { fieldTypes: logFilterFieldTypes(dataTypes) });
}

export type ParseLogQueryOptions = {
  /** Types of dynamic fields (for default operators); fixed log fields always use their own. */
  fieldTypes?: Readonly<Record<string, FilterFieldType>>;
};

/**
 * Parses the logs screen's query: filters (JSON, possibly URL-encoded), fields, page, pageSize, dateFilter,
 * channel.
 */
export function parseLogScreenQuery(input: QueryInput, options: ParseLogQueryOptions = {}): LogScreenState {
  const query = parseQueryString(input);
  const state: LogScreenState = {
    filters: normalizeLogFilters(query.filters, options.fieldTypes),
    fields: parseFieldList(query.fields),
  };
  const page = parsePositiveInt(query.page);
  const pageSize = parsePositiveInt(query.pageSize);
  if (page !== undefined) state.page = page;
  if (pageSize !== undefined) state.pageSize = pageSize;
  if (query.dateFilter !== undefined && query.dateFilter.trim() !== "")
    state.dateFilter = query.dateFilter.trim();
  // Calls are the default: only another known channel is kept.
  if (isLogChannel(query.channel) && query.channel !== "voice") state.channel = query.channel;
  return state;
}

/**
 * Writes the logs screen's state back as a query string (no leading `?`): filters as JSON in the screen form
 * (`<field>` and `<field>Op`), fields as a comma list; empty parts, and page or pageSize that are not positive
 * whole numbers, are left out. {@link parseLogScreenQuery} reads it back unchanged.
 */
export function serializeLogScreenQuery(state: LogScreenState): string {
  const parts: string[] = [];
  const add = (key: string, value: string) => parts.push(`${key}=${encodeURIComponent(value)}`);
  if (Object.keys(state.filters).length > 0) add("filters", JSON.stringify(toScreenFilters(state.filters)));
  const fields = parseFieldList(state.fields);
  if (fields.length > 0) add("fields", fields.join(","));
  const page = parsePositiveInt(state.page);
  const pageSize = parsePositiveInt(state.pageSize);
  if (page !== undefined) add("page", String(page));
  if (pageSize !== undefined) add("pageSize", String(pageSize));
  if (state.dateFilter !== undefined && state.dateFilter.trim() !== "")
    add("dateFilter", state.dateFilter.trim());
  if (state.channel !== undefined && state.channel !== "voice") add("channel", state.channel);
  return parts.join("&");
}

function readInstant(value: unknown, edge: "start" | "end"): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // A bare day covers the whole day (UTC); days that do not exist are refused.
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const day = parseIsoDay(text);
    return day === null ? null : edge === "end" ? day + DAY_MS - 1 : day;
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The time window of a log query from the screen's dateFilter, against a supplied `now` (epoch ms), bounds
 * inclusive. Accepted: a relative amount (`7 day`, `last 3 months`: the last N units up to now), a range as JSON
 * (`{"start":..,"end":..}`) or `start,end`, each a day `YYYY-MM-DD` (whole day, UTC), an ISO timestamp or epoch
 * ms. Anything else, or nothing, is the default window: the last {@link DEFAULT_LOG_RANGE_DAYS} days.
 */
export function resolveLogDateWindow(dateFilter: string | null | undefined, now: number): DateRange {
  const fallback = lastRange({ amount: DEFAULT_LOG_RANGE_DAYS, unit: "day" }, now);
  const text = dateFilter?.trim() ?? "";
  if (text === "") return fallback;
  const relative = parseRelativeDate(text);
  if (relative) return lastRange(relative, now);
  let bounds: [unknown, unknown] | null = null;
  if (text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null) {
        const { start, end } = parsed as { start?: unknown; end?: unknown };
        bounds = [start, end];
      }
    } catch {
      bounds = null;
    }
  } else if (text.includes(",")) {
    const [start, end] = text.split(",");
    bounds = [start, end];
  }
  if (!bounds) return fallback;
  const start = readInstant(bounds[0], "start");
  const end = readInstant(bounds[1], "end");
  if (start === null || end === null || start > end) return fallback;
  return { start, end };
}

/** Query of `GET /api/v2/logs` (call catalogue §7): filter entries as JSON, fields as a comma list. */
export type LogRequestQuery = {
  /** JSON of `{ <field>: { value, op } }`; absent without filters. */
  filters?: string;
  fields: string;
  page?: number;
  pageSize?: number;
  format: LogFormat;
  /** Time window, ISO timestamps. */
  start?: string;
  end?: string;
  /** The channel listed; the server's default (calls) when absent. */
  channel?: LogChannel;
};

export type BuildLogRequestOptions = {
  format?: LogFormat;
  /** When given, the window of the screen's dateFilter is sent as start and end. */
  now?: number;
};

/**
 * The log request of the screen's state: filters as entries, fields plus the always-sent ones, page and
 * pageSize only when positive whole numbers, format json unless told.
 */
export function buildLogRequest(
  state: LogScreenState,
  options: BuildLogRequestOptions = {},
): LogRequestQuery {
  const request: LogRequestQuery = {
    fields: withRequiredLogFields(state.fields).join(","),
    format: options.format ?? "json",
  };
  if (Object.keys(state.filters).length > 0) request.filters = JSON.stringify(state.filters);
  if (state.channel !== undefined && state.channel !== "voice") request.channel = state.channel;
  const page = parsePositiveInt(state.page);
  const pageSize = parsePositiveInt(state.pageSize);
  if (page !== undefined) request.page = page;
  if (pageSize !== undefined) request.pageSize = pageSize;
  if (options.now !== undefined) {
    const range = resolveLogDateWindow(state.dateFilter, options.now);
    request.start = new Date(range.start).toISOString();
    request.end = new Date(range.end).toISOString();
  }
  return request;
}

/** The export request: like {@link buildLogRequest} but page 1 of 10000 rows in the chosen format. */
export function buildLogExportRequest(
  state: LogScreenState,
  format: LogFormat,
  options: Omit<BuildLogRequestOptions, "format"> = {},
): LogRequestQuery {
  return {
    ...buildLogRequest(state, { ...options, format }),
    page: LOG_EXPORT_PAGE,
    pageSize: PAGE_SIZES.logExport,
  };
}
