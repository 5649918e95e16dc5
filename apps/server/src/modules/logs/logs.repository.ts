import { DAY_MS, LOG_COLUMNS, LOG_FIXED_FIELDS, type LogFixedField } from "@switchboard/core";
import type { DatabaseHandle } from "../../db/client.ts";
import { csvLineSql } from "./csv.ts";
import { type LogScope, scopeSql } from "./log-scope.ts";
import { ROLLUP_BUCKET_MS } from "./metric-sql.ts";
import { Params, queryArrays, queryArraysWithoutJit, queryRows, type SqlParam } from "./sql.ts";

/**
 * The log queries: one statement each, over `conversation_logs` (ordered by the index on org_id, timestamp,
 * id). Filters arrive as core's rendered condition with their values; the scope and window are added here.
 */

/** ISO text of a timestamp, as JSON answers and CSV cells carry it (UTC, milliseconds). */
const ISO_TIMESTAMP = `to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Select expression of a fixed field. */
export function fixedFieldSql(field: LogFixedField, asText: boolean): string {
  if (field === "timestamp") return ISO_TIMESTAMP;
  const column = `"${LOG_COLUMNS[field].name}"`;
  return asText && LOG_COLUMNS[field].sqlType !== "text" ? `${column}::text` : column;
}

/** Select expression of a dynamic field (key already checked against LOG_DATA_KEY_PATTERN). */
export function dataFieldSql(key: string, asText: boolean): string {
  return asText ? `(data ->> '${key}')` : `(data -> '${key}')`;
}

/** Core's rendered filter condition and values, placeholders numbered from `firstIndex`. */
export type LogFilter = ((firstIndex: number) => { text: string; values: Array<string | number> }) & {
  /** Every clause names a column conversation_log_rollups keeps (the same SQL runs on it). */
  onRollup?: boolean;
  /** The filter is one collected field equal to one of `values`: conversation_log_value_counts counts it. */
  onValues?: { key: string; values: string[] } | undefined;
  /** Every clause is on the duration: conversation_log_durations counts whole days of the window. */
  onDurations?: boolean;
};

export type LogWhere = {
  scope: LogScope;
  start: Date;
  end: Date;
  filter: LogFilter;
};

/** The whole buckets (rollup's by default) inside [start, end] as [start, end), or null when there are none. */
export function rollupSpan(
  start: Date,
  end: Date,
  bucketMs = ROLLUP_BUCKET_MS,
): { start: Date; end: Date } | null {
  const first = Math.ceil(start.getTime() / bucketMs) * bucketMs;
  const last = Math.floor(end.getTime() / bucketMs) * bucketMs;
  return last > first ? { start: new Date(first), end: new Date(last) } : null;
}

/** The dimensions of conversation_log_rollups besides org_id and bucket. */
const ROLLUP_GROUP = "account_id, agent_id, direction, transfer, data";

/** Day number (at the offset, a float8 placeholder in ms) of a timestamptz expression. */
const daySql = (column: string, offset: string) =>
  `floor((date_part('epoch', ${column}) * 1000 + ${offset}) / 86400000)::int`;

export function whereSql(where: LogWhere, params: Params): string {
  const scope = scopeSql(where.scope, params);
  const start = params.add(where.start.toISOString(), "timestamptz");
  const end = params.add(where.end.toISOString(), "timestamptz");
  const filter = where.filter(params.next);
  for (const value of filter.values) params.values.push(value);
  return `${scope} AND "timestamp" >= ${start} AND "timestamp" <= ${end} AND (${filter.text})`;
}

type WholeBuckets = { scope: string; first: string; last: string; filter: string; params: Params };

/**
 * Where the whole buckets of a count's window are summed (the partial buckets at its edges are counted from
 * the rows), or null when only the rows can answer the filter: the rollup when every clause is on its
 * dimensions, the value counts for "collected field is value", the day's durations for the duration alone.
 */
function countSource(where: LogWhere): { bucketMs: number; whole: (part: WholeBuckets) => string } | null {
  // The groups are summed first (OFFSET 0 keeps the filter out of the grouping), so the filter runs on a
  // handful of groups rather than on every bucket.
  const grouped = (table: string, column: string, group: string) => (part: WholeBuckets) =>
    `(SELECT coalesce(sum(n), 0) FROM (SELECT ${group}, sum(n) AS n FROM ${table} ` +
    `WHERE ${part.scope} AND ${column} >= ${part.first} AND ${column} < ${part.last} ` +
    `GROUP BY ${group} OFFSET 0) g WHERE (${part.filter}))`;
  const { onRollup, onValues: lookup, onDurations } = where.filter;
  if (onRollup)
    return {
      bucketMs: ROLLUP_BUCKET_MS,
      whole: grouped("conversation_log_rollups", "bucket", ROLLUP_GROUP),
    };
  if (lookup)
    return {
      bucketMs: ROLLUP_BUCKET_MS,
      whole: (part) =>
        `(SELECT coalesce(sum(n), 0) FROM conversation_log_value_counts WHERE ${part.scope} ` +
        `AND key = ${part.params.add(lookup.key, "text")} AND value = ANY(${part.params.add(lookup.values, "text[]")}) ` +
        `AND bucket >= ${part.first} AND bucket < ${part.last})`,
    };
  if (onDurations)
    return { bucketMs: DAY_MS, whole: grouped("conversation_log_durations", "day", "agent_id, duration") };
  return null;
}

export function createLogsRepository(database: DatabaseHandle) {
  return {
    /** One page of rows as objects: `select` lists `expression AS "name"` items. */
    async page(where: LogWhere, select: string[], limit: number, offset: number) {
      const params = new Params();
      const condition = whereSql(where, params);
      const text =
        `SELECT ${select.join(", ")} FROM conversation_logs WHERE ${condition} ` +
        `ORDER BY conversation_logs."timestamp" DESC, conversation_logs.id DESC LIMIT ${params.add(limit, "int")} OFFSET ${params.add(offset, "int")}`;
      return queryRows<Record<string, unknown>>(database, text, params.values);
    },

    /**
     * The exact number of rows. When the filter runs on the rollup, whole 15-minute buckets of the window
     * are summed there and only the window's two partial edge buckets are counted from the rows.
     */
    async count(where: LogWhere): Promise<number> {
      const params = new Params();
      const source = countSource(where);
      const span = source ? rollupSpan(where.start, where.end, source.bucketMs) : null;
      if (source === null || span === null) {
        const text = `SELECT count(*)::float8 AS n FROM conversation_logs WHERE ${whereSql(where, params)}`;
        const [row] = await queryRows<{ n: number }>(database, text, params.values);
        return Number(row?.n ?? 0);
      }
      const scope = scopeSql(where.scope, params);
      const filter = where.filter(params.next);
      for (const value of filter.values) params.values.push(value);
      const start = params.add(where.start.toISOString(), "timestamptz");
      const first = params.add(span.start.toISOString(), "timestamptz");
      const last = params.add(span.end.toISOString(), "timestamptz");
      const end = params.add(where.end.toISOString(), "timestamptz");
      const rows = (range: string) =>
        `(SELECT count(*) FROM conversation_logs WHERE ${scope} AND ${range} AND (${filter.text}))`;
      const text =
        `SELECT (${source.whole({ scope, first, last, filter: filter.text, params })} ` +
        `+ ${rows(`"timestamp" >= ${start} AND "timestamp" < ${first}`)} ` +
        `+ ${rows(`"timestamp" >= ${last} AND "timestamp" <= ${end}`)})::float8 AS n`;
      const [row] = await queryRows<{ n: number }>(database, text, params.values);
      return Number(row?.n ?? 0);
    },

    /**
     * CSV text of the rows, newest first, in batches of `batch` rows by keyset (timestamp, id): PostgreSQL
     * builds every line (cells escaped and defused as {@link csvCellSql}) and answers one string per batch,
     * so Node only writes text. The next batch is read while the caller writes the current one; memory
     * stays about two batches however many rows there are. `offset` skips rows before the first batch.
     */
    async *csvBatches(
      where: LogWhere,
      cells: ReadonlyArray<{ sql: string; plain: boolean }>,
      batch: number,
      limit: number | null,
      offset = 0,
    ): AsyncGenerator<string> {
      const line = csvLineSql(cells.map((cell, i) => ({ text: `b.c${i}`, plain: cell.plain })));
      const read = async (cursor: { ts: string; id: number } | null, size: number, skip: number) => {
        const params = new Params();
        let condition = whereSql(where, params);
        if (cursor)
          condition += ` AND ("timestamp", id) < (${params.add(cursor.ts, "timestamptz")}, ${params.add(cursor.id, "int")})`;
        const text =
          `WITH b AS MATERIALIZED (SELECT "timestamp" AS ts, id, ${cells.map((cell, i) => `${cell.sql} AS c${i}`).join(", ")} ` +
          `FROM conversation_logs WHERE ${condition} ` +
          `ORDER BY conversation_logs."timestamp" DESC, conversation_logs.id DESC LIMIT ${size}` +
          `${skip > 0 ? ` OFFSET ${params.add(skip, "int")}` : ""}) ` +
          // A materialized CTE is read back in the order it was written: the lines keep the ORDER BY.
          `SELECT (SELECT string_agg(${line}, '') FROM b) AS text, (SELECT count(*)::int FROM b) AS n, ` +
          `(SELECT b.ts::text FROM b ORDER BY b.ts, b.id LIMIT 1) AS ts, (SELECT b.id FROM b ORDER BY b.ts, b.id LIMIT 1) AS id`;
        const [row] = await queryArrays(database, text, params.values);
        const [body, n, ts, id] = (row ?? []) as [string | null, number, string | null, number | null];
        return {
          text: body ?? "",
          n: Number(n ?? 0),
          cursor: ts === null || id === null ? null : { ts: String(ts), id: Number(id) },
        };
      };
      let left = limit ?? Number.POSITIVE_INFINITY;
      let size = Math.min(batch, left);
      let pending: ReturnType<typeof read> | null = read(null, size, offset);
      try {
        while (pending) {
          const got = await pending;
          pending = null;
          left -= got.n;
          const more = got.n === size && left > 0 && got.cursor !== null;
          if (more) {
            size = Math.min(batch, left);
            pending = read(got.cursor, size, 0);
          }
          if (got.n > 0) yield got.text;
        }
      } finally {
        // The reader stopped early (a closed connection): let the statement in flight finish quietly.
        await pending?.catch(() => {});
      }
    },

    /**
     * The whole window as CSV text, newest first, in time slices of about `rows` rows each (sized from the
     * rollup's counts per 15-minute bucket; the slices cover the window end to end, so the rows do not
     * depend on the rollup). Slices are independent statements, so `parallel` of them are built at once on
     * separate connections while the caller writes the oldest finished one, in order. PostgreSQL builds
     * every line as in {@link csvBatches} and answers each slice as one string (about 2 MB): per row, Node
     * then only passes bytes on. (Pieces numbered and grouped in SQL cost PostgreSQL two more sorts; a row
     * per line cost Node a parse per row; either way the export ran about a quarter slower.)
     */
    async *csvSlices(
      where: LogWhere,
      cells: ReadonlyArray<{ sql: string; plain: boolean }>,
      rows: number,
      parallel: number,
    ): AsyncGenerator<string> {
      const counts = new Params();
      const buckets = await queryArrays(
        database,
        `SELECT (extract(epoch from bucket) * 1000)::float8, sum(n)::float8 FROM conversation_log_rollups ` +
          `WHERE ${scopeSql(where.scope, counts)} ` +
          `AND bucket >= date_bin('15 minutes', ${counts.add(where.start.toISOString(), "timestamptz")}, TIMESTAMPTZ '1970-01-01 00:00:00+00') ` +
          `AND bucket <= ${counts.add(where.end.toISOString(), "timestamptz")} GROUP BY bucket ORDER BY bucket DESC`,
        counts.values,
      );
      // Slice edges (ms, newest first): each slice is [edge k+1, edge k); the first is open above, the last
      // open below, so every row of the window is in exactly one.
      const edges: number[] = [];
      let sum = 0;
      for (const [bucket, n] of buckets as Array<[number, number]>) {
        sum += n;
        if (sum >= rows) {
          edges.push(bucket);
          sum = 0;
        }
      }
      const line = csvLineSql(cells.map((cell, i) => ({ text: `b.c${i}`, plain: cell.plain })));
      const read = async (slice: number) => {
        const params = new Params();
        let condition = whereSql(where, params);
        const below = edges[slice - 1];
        const above = edges[slice];
        if (below !== undefined)
          condition += ` AND "timestamp" < ${params.add(new Date(below).toISOString(), "timestamptz")}`;
        if (above !== undefined)
          condition += ` AND "timestamp" >= ${params.add(new Date(above).toISOString(), "timestamptz")}`;
        // The slice's lines in export order (OFFSET 0 keeps the subquery whole, so each cell is computed once).
        const text =
          `SELECT string_agg(${line}, '' ORDER BY b.ts DESC, b.id DESC) FROM (SELECT conversation_logs."timestamp" AS ts, conversation_logs.id, ` +
          `${cells.map((cell, i) => `${cell.sql} AS c${i}`).join(", ")} ` +
          `FROM conversation_logs WHERE ${condition} OFFSET 0) b`;
        const rows = await queryArrays(database, text, params.values);
        return rows.map((row) => (row[0] as string | null) ?? "");
      };
      const slices = edges.length + 1;
      const inFlight: Array<Promise<string[]>> = [];
      let next = 0;
      const fill = () => {
        while (next < slices && inFlight.length < Math.max(1, parallel)) {
          const pending = read(next++);
          pending.catch(() => {});
          inFlight.push(pending);
        }
      };
      try {
        fill();
        while (inFlight.length > 0) {
          const pieces = await (inFlight.shift() as Promise<string[]>);
          fill();
          yield* pieces;
        }
      } finally {
        // The reader stopped early (a closed connection): let the statements in flight finish quietly.
        await Promise.allSettled(inFlight);
      }
    },

    /** The `data` of the newest rows, for the dynamic fields and their types. */
    async sampleData(scope: LogScope, limit: number) {
      const params = new Params();
      const text =
        `SELECT data FROM conversation_logs WHERE ${scopeSql(scope, params)} ` +
        `ORDER BY conversation_logs."timestamp" DESC, conversation_logs.id DESC LIMIT ${params.add(limit, "int")}`;
      return (await queryRows<{ data: Record<string, unknown> }>(database, text, params.values)).map(
        (row) => row.data,
      );
    },

    /** Aggregates over the window grouped by day (at the offset): `day` number plus the named values. */
    async aggregateByDay(
      where: LogWhere,
      build: (params: Params, condition: string) => string[],
      offsetMinutes: number,
    ) {
      const params = new Params();
      const condition = whereSql(where, params);
      const offset = params.add(offsetMinutes * 60_000, "float8");
      const aggregates = build(params, "TRUE");
      const text =
        `SELECT ${daySql('"timestamp"', offset)} AS day, ` +
        `${aggregates.map((aggregate, i) => `${aggregate} AS a${i}`).join(", ")} ` +
        `FROM conversation_logs WHERE ${condition} GROUP BY 1`;
      const rows = await queryArraysWithoutJit(database, text, params.values);
      return rows.map((row) => ({
        day: Number(row[0]),
        values: row.slice(1).map((value) => Number(value ?? 0)),
      }));
    },

    /**
     * {@link aggregateByDay} with whole 15-minute buckets read from conversation_log_rollups (`rollup`
     * aggregates over its groups) and the window's partial edge buckets from the rows (`raw` aggregates,
     * the same values in the same order); one statement. `span` is {@link rollupSpan} of the window.
     */
    async aggregateByDayWithRollup(
      where: LogWhere,
      span: { start: Date; end: Date },
      build: (params: Params) => { rollup: string[]; raw: string[] },
      offsetMinutes: number,
    ) {
      const params = new Params();
      const scope = scopeSql(where.scope, params);
      const offset = params.add(offsetMinutes * 60_000, "float8");
      const start = params.add(where.start.toISOString(), "timestamptz");
      const first = params.add(span.start.toISOString(), "timestamptz");
      const last = params.add(span.end.toISOString(), "timestamptz");
      const end = params.add(where.end.toISOString(), "timestamptz");
      const { rollup, raw } = build(params);
      const list = (items: string[]) => items.map((item, i) => `${item} AS a${i}`).join(", ");
      const edge = (range: string) =>
        `SELECT ${daySql('"timestamp"', offset)} AS day, ${list(raw)} FROM conversation_logs ` +
        `WHERE ${scope} AND ${range} GROUP BY 1`;
      // The buckets are summed per day and group first (OFFSET 0 keeps them apart), so the formulas run on
      // a few groups a day rather than on every bucket.
      const groups =
        `SELECT ${daySql("bucket", offset)} AS day, ${ROLLUP_GROUP}, sum(n)::float8 AS n, ` +
        `sum(duration_sum)::float8 AS duration_sum, sum(answered)::float8 AS answered ` +
        `FROM conversation_log_rollups WHERE ${scope} AND bucket >= ${first} AND bucket < ${last} ` +
        `GROUP BY 1, ${ROLLUP_GROUP} OFFSET 0`;
      const text =
        `SELECT day, ${rollup.map((_, i) => `sum(a${i})::float8`).join(", ")} FROM (` +
        `SELECT day, ${list(rollup)} FROM (${groups}) g GROUP BY 1 ` +
        `UNION ALL ${edge(`"timestamp" >= ${start} AND "timestamp" < ${first}`)} ` +
        `UNION ALL ${edge(`"timestamp" >= ${last} AND "timestamp" <= ${end}`)}) parts GROUP BY day`;
      const rows = await queryArraysWithoutJit(database, text, params.values);
      return rows.map((row) => ({
        day: Number(row[0]),
        values: row.slice(1).map((value) => Number(value ?? 0)),
      }));
    },

    /** Every row of the window (fixed fields and data), oldest first: core's evaluator runs over them. */
    async rowsForEvaluation(where: LogWhere, limit: number) {
      const params = new Params();
      const select = LOG_FIXED_FIELDS.map((field) =>
        field === "timestamp"
          ? `(extract(epoch from "timestamp") * 1000)::float8 AS "timestamp"`
          : `${fixedFieldSql(field, false)} AS "${field}"`,
      );
      const text =
        `SELECT ${select.join(", ")}, data FROM conversation_logs WHERE ${whereSql(where, params)} ` +
        `ORDER BY conversation_logs."timestamp", conversation_logs.id LIMIT ${params.add(limit, "int")}`;
      return queryRows<Record<string, unknown>>(database, text, params.values);
    },

    /** Calls flagged for review: a failed agent turn, or `reviewReason` in the log data. */
    async flagged(scope: LogScope, start: Date, end: Date, limit: number, offset: number) {
      const params = new Params();
      const text =
        `SELECT l.org_id, l.account_name, l.agent_id, l.room_id, l.uuid, ` +
        `to_char(l."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts, l.duration, l.direction, ` +
        `l.data ->> 'reviewReason' AS review_reason, ` +
        `EXISTS (SELECT 1 FROM conversation_messages m WHERE m.conversation_uuid = l.uuid AND m.status = 'failed') AS failed ` +
        `FROM conversation_logs l WHERE ${scopeSql(scope, params, "l")} ` +
        `AND l."timestamp" >= ${params.add(start.toISOString(), "timestamptz")} ` +
        `AND l."timestamp" <= ${params.add(end.toISOString(), "timestamptz")} ` +
        `AND (l.data ? 'reviewReason' OR EXISTS (SELECT 1 FROM conversation_messages m WHERE m.conversation_uuid = l.uuid AND m.status = 'failed')) ` +
        `ORDER BY l."timestamp" DESC, l.id DESC LIMIT ${params.add(limit, "int")} OFFSET ${params.add(offset, "int")}`;
      return queryRows<{
        org_id: number;
        account_name: string | null;
        agent_id: number | null;
        room_id: string | null;
        uuid: string;
        ts: string;
        duration: number;
        direction: string | null;
        review_reason: string | null;
        failed: boolean;
      }>(database, text, params.values);
    },

    /** Runs any other statement built with {@link Params}. */
    query<T extends Record<string, unknown>>(text: string, values: readonly SqlParam[]) {
      return queryRows<T>(database, text, values);
    },
  };
}

export type LogsRepository = ReturnType<typeof createLogsRepository>;
