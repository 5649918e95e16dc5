import {
  conversationLogsExportName,
  DATE_OPERATORS,
  DAY_MS,
  DEFAULT_LOG_RANGE_DAYS,
  type FilterFieldType,
  type Filters,
  humanizeFieldName,
  INTEGER_OPERATORS,
  inferLogFieldTypes,
  isLogFixedField,
  LOG_DATA_KEY_PATTERN,
  LOG_FIELD_LABELS,
  LOG_FIXED_FIELDS,
  LOG_REQUIRED_FIELDS,
  LOG_ROW_FIELD_TYPES,
  type LogChannel,
  type LogFilterClause,
  LogFilterError,
  normalizeLogFilters,
  PAGE_SIZES,
  parseFieldList,
  parseIsoDay,
  resolveLogDateWindow,
  STRING_OPERATORS,
  translateLogFilters,
} from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { badRequest } from "../../api-error.ts";
import { LOG_VALUE_MAX_LENGTH } from "../../db/schema/index.ts";
import { csvLine } from "./csv.ts";
import { logFilterSql } from "./filter-sql.ts";
import type { LogScope } from "./log-scope.ts";
import {
  dataFieldSql,
  fixedFieldSql,
  type LogFilter,
  type LogsRepository,
  type LogWhere,
  type SelectItem,
} from "./logs.repository.ts";
import { ROLLUP_DATA_KEYS, ROLLUP_FIXED_FIELDS } from "./metric-sql.ts";

/** Rows the dynamic fields are inferred from. */
const FIELD_SAMPLE_ROWS = 1000;
/** Rows per keyset statement of a paged export (one string of about 4 MB at 13 columns). */
const EXPORT_BATCH = 20_000;
/** Rows per time slice of a whole-window export (about 2 MB of text at 13 columns). */
const EXPORT_SLICE_ROWS = 10_000;
/** Slices of a whole-window export built at once (each on its own connection; PGlite runs them in turn). */
const EXPORT_PARALLEL = 2;
/** Fixed fields whose CSV text never needs quoting or defusing: integers and the ISO timestamp. */
const PLAIN_CSV_FIELDS = new Set<string>(["accountId", "agentId", "duration", "timestamp"]);

export type LogWindowInput = {
  start?: string | undefined;
  end?: string | undefined;
  dateFilter?: string | undefined;
};

function readInstant(text: string, edge: "start" | "end", name: string): number {
  const value = text.trim();
  if (/^\d{1,15}$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = parseIsoDay(value);
    if (day !== null) return edge === "end" ? day + DAY_MS - 1 : day;
  } else if (/^\d{4}-\d{2}-\d{2}[T ]/.test(value)) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  throw badRequest(`${name}: must be a date (YYYY-MM-DD, ISO timestamp or epoch ms)`);
}

/** The window of a log query: start/end when given, else the screen's dateFilter, else the last 30 days. */
export function resolveWindow(input: LogWindowInput, now: number): { start: number; end: number } {
  if (input.start === undefined && input.end === undefined)
    return resolveLogDateWindow(input.dateFilter, now);
  const end = input.end !== undefined ? readInstant(input.end, "end", "end") : now;
  const start =
    input.start !== undefined
      ? readInstant(input.start, "start", "start")
      : end - DEFAULT_LOG_RANGE_DAYS * DAY_MS;
  if (start > end) throw badRequest("start: must be before end");
  return { start, end };
}

/**
 * Types of the dynamic fields a filter names, read from its operator (the builder offers each type's own
 * operators); `between` reads as dates when its values are days, else numbers.
 */
export function dynamicFilterTypes(filters: Filters): Record<string, FilterFieldType> {
  const types: Record<string, FilterFieldType> = {};
  for (const [field, entry] of Object.entries(filters)) {
    if (isLogFixedField(field)) continue;
    const op = entry.op;
    if ((STRING_OPERATORS as readonly string[]).includes(op)) types[field] = "string";
    else if (op === "between" || op === "notBetween") {
      const first = Array.isArray(entry.value) ? entry.value[0] : entry.value;
      types[field] = typeof first === "string" && /^\d{4}-\d{2}-\d{2}/.test(first) ? "date" : "integer";
    } else if ((INTEGER_OPERATORS as readonly string[]).includes(op)) types[field] = "integer";
    else if ((DATE_OPERATORS as readonly string[]).includes(op)) types[field] = "date";
  }
  return types;
}

/**
 * The one clause "collected field is/equals text", whose count conversation_log_value_counts answers (it
 * counts the text `data ->> key` gives, up to LOG_VALUE_MAX_LENGTH characters; a longer value counts rows).
 */
function valuesLookup(clauses: LogFilterClause[]): { key: string; values: string[] } | undefined {
  const [only] = clauses;
  if (clauses.length !== 1 || !only || only.column.kind !== "data" || only.valueType !== "string") return;
  if (only.operator !== "is" && only.operator !== "eq") return;
  const values = only.params.filter((value): value is string => typeof value === "string");
  if (values.length !== only.params.length || values.some((v) => v.length > LOG_VALUE_MAX_LENGTH)) return;
  return { key: only.column.key, values };
}

/**
 * Log filters (raw: JSON text, possibly URL-encoded, or an object) as a condition (core's clauses built into
 * SQL with their values and keys as parameters); a refused field, operator or value answers 400 with the
 * translator's message.
 */
export function filterCondition(raw: unknown, now: number, utcOffsetMinutes = 0): LogFilter {
  const first = normalizeLogFilters(raw);
  const fieldTypes = dynamicFilterTypes(first);
  const filters = normalizeLogFilters(raw, fieldTypes);
  try {
    const translation = translateLogFilters(filters, { now, fieldTypes, utcOffsetMinutes });
    // PostgreSQL text cannot hold NUL: refused here, as any other value it cannot compare.
    if (translation.clauses.some((clause) => clause.params.some((v) => String(v).includes("\u0000"))))
      throw badRequest("filters: a value holds a NUL character");
    const onRollup = translation.clauses.every((clause) =>
      clause.column.kind === "fixed"
        ? ROLLUP_FIXED_FIELDS.has(clause.column.field)
        : ROLLUP_DATA_KEYS.has(clause.column.key),
    );
    return {
      sql: logFilterSql(translation),
      onRollup,
      onValues: valuesLookup(translation.clauses),
      onDurations:
        translation.clauses.length > 0 &&
        translation.clauses.every(
          (clause) => clause.column.kind === "fixed" && clause.column.field === "duration",
        ),
    };
  } catch (error) {
    if (error instanceof LogFilterError) throw badRequest(`filters: ${error.message}`);
    throw error;
  }
}

/** The requested fields, checked: fixed fields and data keys only. */
function checkedFields(fields: string | undefined): string[] | null {
  if (fields === undefined || fields.trim() === "") return null;
  const list = parseFieldList(fields);
  for (const field of list) {
    if (!isLogFixedField(field) && !LOG_DATA_KEY_PATTERN.test(field))
      throw badRequest(`fields: ${JSON.stringify(field.slice(0, 64))} is not a log field`);
  }
  return list.slice(0, 200);
}

export type LogListQuery = LogWindowInput & {
  filters?: string | undefined;
  fields?: string | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
  format: "json" | "csv";
  utcOffsetMinutes?: number | undefined;
  /** The channel listed (voice, the calls, when absent), or all. */
  channel?: LogChannel | "all" | undefined;
};

type Deps = {
  repo: LogsRepository;
  scopeOf: (target: Access["target"]) => Promise<LogScope>;
  now?: () => number;
};

export function createLogsService(deps: Deps) {
  const { repo } = deps;
  const now = deps.now ?? Date.now;

  function whereOf(scope: LogScope, query: LogListQuery, at: number): LogWhere {
    const window = resolveWindow(query, at);
    const filter = filterCondition(query.filters, at, query.utcOffsetMinutes ?? 0);
    const channel = query.channel ?? "voice";
    return {
      scope,
      channels: channel === "all" ? null : [channel],
      start: new Date(window.start),
      end: new Date(window.end),
      filter,
    };
  }

  /** The dynamic fields of the scope's newest rows with their inferred types, fixed fields first. */
  async function fieldsOf(scope: LogScope) {
    const sample = await repo.sampleData(scope, FIELD_SAMPLE_ROWS);
    const inferred = inferLogFieldTypes(sample);
    const fixed = LOG_FIXED_FIELDS.map((name) => ({
      name,
      label: LOG_FIELD_LABELS[name],
      type: LOG_ROW_FIELD_TYPES[name] as FilterFieldType,
      fixed: true,
    }));
    const fixedLower = new Set(LOG_FIXED_FIELDS.map((name) => name.toLowerCase()));
    const dynamic = Object.entries(inferred)
      .filter(([name]) => LOG_DATA_KEY_PATTERN.test(name) && !fixedLower.has(name.toLowerCase()))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, type]) => ({ name, label: humanizeFieldName(name), type, fixed: false }));
    // One label per field: a collected field whose words match another field's label says its key too.
    const taken = new Set(fixed.map((field) => field.label.toLowerCase()));
    for (const field of dynamic) {
      if (taken.has(field.label.toLowerCase())) field.label = `${field.label} (${field.name})`;
      taken.add(field.label.toLowerCase());
    }
    return [...fixed, ...dynamic];
  }

  /** A JSON row: the fixed fields asked for, then dynamic ones (all of them when no fields were given). */
  function toJsonRow(row: Record<string, unknown>, fields: string[] | null): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const data = (row.data ?? {}) as Record<string, unknown>;
    if (fields === null) {
      for (const field of LOG_FIXED_FIELDS) out[field] = row[field] ?? null;
      for (const [key, value] of Object.entries(data)) if (!Object.hasOwn(out, key)) out[key] = value;
      return out;
    }
    for (const field of fields) {
      out[field] = isLogFixedField(field)
        ? (row[field] ?? null)
        : Object.hasOwn(data, field)
          ? data[field]
          : null;
    }
    return out;
  }

  async function list(access: Access, query: LogListQuery) {
    const at = now();
    const scope = await deps.scopeOf(access.target);
    const where = whereOf(scope, query, at);
    const requested = checkedFields(query.fields);
    const fields = requested === null ? null : [...new Set([...requested, ...LOG_REQUIRED_FIELDS])];
    const page = Math.max(1, query.page ?? 1);
    const pageSize = query.pageSize ?? PAGE_SIZES.logs;
    const needsData = fields === null || fields.some((field) => !isLogFixedField(field));
    const select: SelectItem[] = [
      ...LOG_FIXED_FIELDS.filter((field) => fields === null || fields.includes(field)).map((field) => ({
        sql: fixedFieldSql(field, false),
        as: field,
      })),
      ...(needsData ? [{ sql: sql`data`, as: "data" }] : []),
    ];
    const [rows, totalCount] = await Promise.all([
      repo.page(where, select, pageSize, (page - 1) * pageSize),
      repo.count(where),
    ]);
    return {
      success: true as const,
      logs: rows.map((row) => toJsonRow(row, fields)),
      totalCount,
      pagination: { page, pageSize, hasMore: (page - 1) * pageSize + rows.length < totalCount },
      window: { start: where.start.getTime(), end: where.end.getTime() },
    };
  }

  /**
   * The CSV export: the header, then the rows in batches. Everything that can be refused (fields, filters,
   * window) is checked and the first batch read before this answers, so failures still answer JSON.
   */
  async function csv(access: Access, query: LogListQuery) {
    const at = now();
    const scope = await deps.scopeOf(access.target);
    const where = whereOf(scope, query, at);
    const requested = checkedFields(query.fields);
    const columns = requested ?? (await fieldsOf(scope)).map((field) => field.name);
    const cells = columns.map((field) => ({
      sql: isLogFixedField(field) ? fixedFieldSql(field, true) : dataFieldSql(field, true),
      plain: isLogFixedField(field) && PLAIN_CSV_FIELDS.has(field),
    }));
    const paged = query.page !== undefined || query.pageSize !== undefined;
    let limit: number | null = null;
    let offset = 0;
    if (paged) {
      const pageSize = query.pageSize ?? PAGE_SIZES.logs;
      limit = pageSize;
      offset = (Math.max(1, query.page ?? 1) - 1) * pageSize;
    }
    // A PostgreSQL server streams one COPY; PGlite has none, so it reads the lines built in SQL in batches.
    const batches: AsyncGenerator<string | Buffer> = repo.copies(cells.length)
      ? repo.csvCopy(where, cells, limit, offset)
      : limit === null
        ? repo.csvSlices(where, cells, EXPORT_SLICE_ROWS, EXPORT_PARALLEL)
        : repo.csvBatches(where, cells, EXPORT_BATCH, limit, offset);
    const first = await batches.next();
    async function* lines(): AsyncGenerator<string | Buffer> {
      yield csvLine(columns);
      if (first.done) return;
      yield first.value;
      yield* batches;
    }
    return {
      fileName: conversationLogsExportName(new Date(at).toISOString().slice(0, 10), "csv"),
      lines,
      /**
       * Ends the reading early (a no-op once it finished): the caller runs it when the answer is over, so
       * rows never read (a download closed before the first) still give back their connection.
       */
      stop: async () => {
        await batches.return(undefined);
      },
    };
  }

  async function fields(access: Access) {
    return { success: true as const, fields: await fieldsOf(await deps.scopeOf(access.target)) };
  }

  async function review(
    access: Access,
    query: {
      page?: number | undefined;
      pageSize?: number | undefined;
      start?: string | undefined;
      end?: string | undefined;
      targetAccountId?: number | undefined;
    },
  ) {
    const window = resolveWindow(query, now());
    const scope: LogScope =
      query.targetAccountId !== undefined
        ? await deps.scopeOf(access.target)
        : { orgIds: null, agentId: null };
    const page = Math.max(1, query.page ?? 1);
    const pageSize = query.pageSize ?? 50;
    const rows = await repo.flagged(
      scope,
      new Date(window.start),
      new Date(window.end),
      pageSize + 1,
      (page - 1) * pageSize,
    );
    return {
      success: true as const,
      calls: rows.slice(0, pageSize).map((row) => ({
        orgId: row.org_id,
        accountName: row.account_name,
        agentId: row.agent_id,
        roomId: row.room_id,
        uuid: row.uuid,
        timestamp: row.ts,
        duration: row.duration,
        direction: row.direction,
        reasons: [
          ...(row.failed ? ["An agent turn failed"] : []),
          ...(row.review_reason ? [row.review_reason] : []),
        ],
      })),
      pagination: { page, pageSize, hasMore: rows.length > pageSize },
    };
  }

  return { list, csv, fields, fieldsOf, review };
}

export type LogsService = ReturnType<typeof createLogsService>;
