import {
  DAY_MS,
  LOG_COLUMNS,
  LOG_FIXED_FIELDS,
  type LogChannel,
  type LogFixedField,
} from "@switchboard/core";
import { type SQL, sql } from "drizzle-orm";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { DatabaseHandle } from "../../db/client.ts";
import { CopyCsvLines, copyCellSql, csvLineSql } from "./csv.ts";
import { dataTextSql } from "./filter-sql.ts";
import { type LogScope, scopeSql } from "./log-scope.ts";
import type { RollupGroup } from "./metric-rollup.ts";
import { ROLLUP_BUCKET_MS } from "./metric-sql.ts";
import {
  compile,
  ident,
  inlineParams,
  joined,
  param,
  queryArrays,
  queryArraysWithoutJit,
  queryRows,
} from "./sql.ts";

/**
 * The log queries: one statement each, over `conversation_logs` (ordered by the index on org_id, timestamp,
 * id). Statements are built with Drizzle's `sql` template (values and data keys as parameters); filters
 * arrive as a condition built from core's clauses (filter-sql.ts); the scope and window are added here.
 */

/** ISO text of a timestamp, as JSON answers and CSV cells carry it (UTC, milliseconds). */
const ISO_TIMESTAMP = sql`to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Select expression of a fixed field. */
export function fixedFieldSql(field: LogFixedField, asText: boolean): SQL {
  if (field === "timestamp") return ISO_TIMESTAMP;
  const column = ident(LOG_COLUMNS[field].name);
  return asText && LOG_COLUMNS[field].sqlType !== "text" ? sql`${column}::text` : column;
}

/** Select expression of a dynamic field: the key is a parameter (`data -> $n`), never SQL text. */
export function dataFieldSql(key: string, asText: boolean): SQL {
  return asText ? dataTextSql(key) : sql`(data -> ${param(key, "text")})`;
}

/** A filter as a condition on `conversation_logs` (see filter-sql.ts), and which counts can answer it. */
export type LogFilter = {
  /** The condition (`TRUE` without filters). */
  sql: SQL;
  /** Every clause names a column conversation_log_rollups keeps (the same SQL runs on it). */
  onRollup?: boolean;
  /** The filter is one collected field equal to one of `values`: conversation_log_value_counts counts it. */
  onValues?: { key: string; values: string[] } | undefined;
  /** Every clause is on the duration: conversation_log_durations counts whole days of the window. */
  onDurations?: boolean;
};

export type LogWhere = {
  scope: LogScope;
  /** The channels of the rows (the Calls screen's: voice); null for every channel. */
  channels: readonly LogChannel[] | null;
  start: Date;
  end: Date;
  filter: LogFilter;
};

/**
 * Rows of `channels` (null: every channel), as a condition on conversation_logs or on any counts table (each
 * keeps the channel under the same column name).
 */
export function channelSql(channels: readonly LogChannel[] | null): SQL {
  if (channels === null) return sql`TRUE`;
  if (channels.length === 1) return sql`channel = ${param(channels[0] as string, "text")}`;
  return sql`channel = ANY(${param([...channels], "text[]")})`;
}

/** The scope and the channels: whose rows, of which channels (on conversation_logs or a counts table). */
function rowsOf(where: Pick<LogWhere, "scope" | "channels">): SQL {
  return where.channels === null
    ? scopeSql(where.scope)
    : sql`${scopeSql(where.scope)} AND ${channelSql(where.channels)}`;
}

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
const ROLLUP_GROUP = sql.raw("account_id, agent_id, direction, transfer, channel, data");

/** Day number (at the offset, a float8 parameter in ms) of a timestamptz expression. */
const daySql = (column: SQL, offset: SQL) =>
  sql`floor((date_part('epoch', ${column}) * 1000 + ${offset}) / 86400000)::int`;

const instant = (date: Date) => param(date.toISOString(), "timestamptz");

export function whereSql(where: LogWhere): SQL {
  return sql`${rowsOf(where)} AND "timestamp" >= ${instant(where.start)} AND "timestamp" <= ${instant(where.end)} AND (${where.filter.sql})`;
}

type WholeBuckets = { scope: SQL; span: { start: Date; end: Date }; filter: SQL };

const HOUR_MS = 3_600_000;
/** The rollups' columns, in the same order in both tables. */
const ROLLUP_COLUMNS = sql.raw(
  "bucket, account_id, agent_id, direction, transfer, channel, data, n, duration_sum, answered",
);

/**
 * The rollup rows of the whole 15-minute buckets of `span`, as one relation: its whole hours from the hourly
 * rollup (a quarter of the rows) when `hours`, the quarter hours at its edges (or all of it) from the
 * 15-minute rollup.
 */
function rollupRows(scope: SQL, span: { start: Date; end: Date }, hours: boolean): SQL {
  const quarters = (from: Date, to: Date) =>
    sql`SELECT ${ROLLUP_COLUMNS} FROM conversation_log_rollups WHERE ${scope}
      AND bucket >= ${instant(from)} AND bucket < ${instant(to)}`;
  const whole = hours ? rollupSpan(span.start, span.end, HOUR_MS) : null;
  if (whole === null) return sql`(${quarters(span.start, span.end)})`;
  return sql`(SELECT ${ROLLUP_COLUMNS} FROM conversation_log_rollups_hourly WHERE ${scope}
    AND bucket >= ${instant(whole.start)} AND bucket < ${instant(whole.end)}
    UNION ALL ${quarters(span.start, whole.start)} UNION ALL ${quarters(whole.end, span.end)})`;
}

/**
 * Where the whole buckets of a count's window are summed (the partial buckets at its edges are counted from
 * the rows), or null when only the rows can answer the filter: the rollup when every clause is on its
 * dimensions, the value counts for "collected field is value", the day's durations for the duration alone.
 */
function countSource(where: LogWhere): { bucketMs: number; whole: (part: WholeBuckets) => SQL } | null {
  // The filter runs on the counted rows themselves: every clause is a plain comparison of their columns.
  const { onRollup, onValues: lookup, onDurations } = where.filter;
  if (onRollup)
    return {
      bucketMs: ROLLUP_BUCKET_MS,
      whole: (part) =>
        sql`(SELECT coalesce(sum(n), 0) FROM ${rollupRows(part.scope, part.span, true)} r WHERE (${part.filter}))`,
    };
  if (lookup)
    return {
      bucketMs: ROLLUP_BUCKET_MS,
      whole: (part) =>
        sql`(SELECT coalesce(sum(n), 0) FROM conversation_log_value_counts WHERE ${part.scope}
          AND key = ${param(lookup.key, "text")} AND value = ANY(${param(lookup.values, "text[]")})
          AND bucket >= ${instant(part.span.start)} AND bucket < ${instant(part.span.end)})`,
    };
  if (onDurations)
    return {
      bucketMs: DAY_MS,
      whole: (part) =>
        sql`(SELECT coalesce(sum(n), 0) FROM conversation_log_durations WHERE ${part.scope}
          AND day >= ${instant(part.span.start)} AND day < ${instant(part.span.end)} AND (${part.filter}))`,
    };
  return null;
}

/** Select items `expression AS "name"`. */
export type SelectItem = { sql: SQL; as: string };

const selectList = (items: readonly SelectItem[]) =>
  joined(
    items.map((item) => sql`${item.sql} AS ${sql.identifier(item.as)}`),
    ", ",
  );

/** `expression AS a0, expression AS a1, ...` (the aggregates of a grouped statement). */
const numbered = (items: readonly SQL[], prefix: string) =>
  selectList(items.map((item, i) => ({ sql: item, as: `${prefix}${i}` })));

const NEWEST_FIRST = sql`ORDER BY conversation_logs."timestamp" DESC, conversation_logs.id DESC`;

/** Destroys a client's socket (pg has no public way): its backend ends at its next write or read. */
function closeSocket(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

export function createLogsRepository(database: DatabaseHandle) {
  return {
    /** One page of rows as objects. */
    async page(where: LogWhere, select: readonly SelectItem[], limit: number, offset: number) {
      return queryRows<Record<string, unknown>>(
        database,
        sql`SELECT ${selectList(select)} FROM conversation_logs WHERE ${whereSql(where)}
          ${NEWEST_FIRST} LIMIT ${param(limit, "int")} OFFSET ${param(offset, "int")}`,
      );
    },

    /**
     * The exact number of rows. When the filter runs on the rollup, whole 15-minute buckets of the window
     * are summed there and only the window's two partial edge buckets are counted from the rows.
     */
    async count(where: LogWhere): Promise<number> {
      const source = countSource(where);
      const span = source ? rollupSpan(where.start, where.end, source.bucketMs) : null;
      if (source === null || span === null) {
        const [row] = await queryRows<{ n: number }>(
          database,
          sql`SELECT count(*)::float8 AS n FROM conversation_logs WHERE ${whereSql(where)}`,
        );
        return Number(row?.n ?? 0);
      }
      const scope = rowsOf(where);
      const filter = where.filter.sql;
      const first = instant(span.start);
      const last = instant(span.end);
      const rows = (range: SQL) =>
        sql`(SELECT count(*) FROM conversation_logs WHERE ${scope} AND ${range} AND (${filter}))`;
      const [row] = await queryRows<{ n: number }>(
        database,
        sql`SELECT (${source.whole({ scope, span, filter })}
          + ${rows(sql`"timestamp" >= ${instant(where.start)} AND "timestamp" < ${first}`)}
          + ${rows(sql`"timestamp" >= ${last} AND "timestamp" <= ${instant(where.end)}`)})::float8 AS n`,
      );
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
      cells: ReadonlyArray<{ sql: SQL; plain: boolean }>,
      batch: number,
      limit: number | null,
      offset = 0,
    ): AsyncGenerator<string> {
      // Fixed SQL: the line is built from this statement's own column aliases b.c0, b.c1, ...
      const line = sql.raw(csvLineSql(cells.map((cell, i) => ({ text: `b.c${i}`, plain: cell.plain }))));
      const columns = numbered(
        cells.map((cell) => cell.sql),
        "c",
      );
      const read = async (cursor: { ts: string; id: number } | null, size: number, skip: number) => {
        const after = cursor
          ? sql` AND ("timestamp", id) < (${param(cursor.ts, "timestamptz")}, ${param(cursor.id, "int")})`
          : sql``;
        // A materialized CTE is read back in the order it was written: the lines keep the ORDER BY.
        const [row] = await queryArrays(
          database,
          sql`WITH b AS MATERIALIZED (SELECT "timestamp" AS ts, id, ${columns}
            FROM conversation_logs WHERE ${whereSql(where)}${after}
            ${NEWEST_FIRST} LIMIT ${param(size, "int")}${skip > 0 ? sql` OFFSET ${param(skip, "int")}` : sql``})
            SELECT (SELECT string_agg(${line}, '') FROM b) AS text, (SELECT count(*)::int FROM b) AS n,
            (SELECT b.ts::text FROM b ORDER BY b.ts, b.id LIMIT 1) AS ts, (SELECT b.id FROM b ORDER BY b.ts, b.id LIMIT 1) AS id`,
        );
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
     * hourly rollup's counts; the slices cover the window end to end, so the rows do not
     * depend on the rollup). Slices are independent statements, so `parallel` of them are built at once on
     * separate connections while the caller writes the oldest finished one, in order. PostgreSQL builds
     * every line as in {@link csvBatches} and answers each slice as one string (about 2 MB): per row, Node
     * then only passes bytes on. (Pieces numbered and grouped in SQL cost PostgreSQL two more sorts; a row
     * per line cost Node a parse per row; either way the export ran about a quarter slower.)
     */
    async *csvSlices(
      where: LogWhere,
      cells: ReadonlyArray<{ sql: SQL; plain: boolean }>,
      rows: number,
      parallel: number,
    ): AsyncGenerator<string> {
      const buckets = await queryArrays(
        database,
        sql`SELECT (extract(epoch from bucket) * 1000)::float8, sum(n)::float8 FROM conversation_log_rollups_hourly
          WHERE ${rowsOf(where)}
          AND bucket >= date_bin('1 hour', ${instant(where.start)}, TIMESTAMPTZ '1970-01-01 00:00:00+00')
          AND bucket <= ${instant(where.end)} GROUP BY bucket ORDER BY bucket DESC`,
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
      // Fixed SQL: the line is built from this statement's own column aliases b.c0, b.c1, ...
      const line = sql.raw(csvLineSql(cells.map((cell, i) => ({ text: `b.c${i}`, plain: cell.plain }))));
      const columns = numbered(
        cells.map((cell) => cell.sql),
        "c",
      );
      const read = async (slice: number) => {
        const below = edges[slice - 1];
        const above = edges[slice];
        const condition = sql`${whereSql(where)}${below !== undefined ? sql` AND "timestamp" < ${instant(new Date(below))}` : sql``}${above !== undefined ? sql` AND "timestamp" >= ${instant(new Date(above))}` : sql``}`;
        // The slice's lines in export order (OFFSET 0 keeps the subquery whole, so each cell is computed once).
        const rows = await queryArrays(
          database,
          sql`SELECT string_agg(${line}, '' ORDER BY b.ts DESC, b.id DESC) FROM (SELECT conversation_logs."timestamp" AS ts, conversation_logs.id,
            ${columns} FROM conversation_logs WHERE ${condition} OFFSET 0) b`,
        );
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

    /**
     * On a PostgreSQL server, the export streams `COPY (SELECT …) TO STDOUT (FORMAT csv)` (two cells or
     * more per line; PGlite has no streaming COPY): see {@link csvCopy}.
     */
    copies: (cells: number) => database.driver.kind === "postgres" && cells >= 2,

    /**
     * CSV text of the rows, newest first (`limit` rows after `offset`, or all), as one
     * `COPY (SELECT …) TO STDOUT (FORMAT csv)` on a connection of its own: PostgreSQL writes the rows out
     * as it reads them, cells quoted by COPY ({@link copyCellSql}), and Node only fixes line ends and the
     * cells that begin like a formula ({@link CopyCsvLines}), bytes in, bytes out, no string per cell or
     * line. COPY takes no parameters, so the statement's values are written in as literals
     * ({@link inlineParams}). The connection is read only as fast as the caller takes chunks, so
     * PostgreSQL waits while the download is slow; a caller that stops early (a closed download) or an error closes that connection, which
     * ends the statement on the server, and the pool opens another when needed.
     */
    async *csvCopy(
      where: LogWhere,
      cells: ReadonlyArray<{ sql: SQL; plain: boolean }>,
      limit: number | null,
      offset = 0,
    ): AsyncGenerator<Buffer> {
      if (database.driver.kind !== "postgres") throw new Error("COPY needs a PostgreSQL server");
      const copied = sql.raw(
        cells.map((cell, i) => `${copyCellSql(`b.c${i}`, cell.plain)} AS c${i}`).join(", "),
      );
      const columns = numbered(
        cells.map((cell) => cell.sql),
        "c",
      );
      const page =
        limit === null
          ? sql``
          : sql` LIMIT ${param(limit, "int")}${offset > 0 ? sql` OFFSET ${param(offset, "int")}` : sql``}`;
      // OFFSET 0 keeps the subquery whole, so each cell is computed once; its order is the outer one's.
      const statement = compile(
        sql`SELECT ${copied} FROM (SELECT conversation_logs."timestamp" AS ts, conversation_logs.id, ${columns}
          FROM conversation_logs WHERE ${whereSql(where)} ${NEWEST_FIRST}${page}${limit === null ? sql` OFFSET 0` : sql``}) b
          ORDER BY b.ts DESC, b.id DESC`,
      );
      const text = `COPY (${inlineParams(statement.text, statement.values)}) TO STDOUT WITH (FORMAT csv)`;
      const client = await database.driver.pool.connect();
      // A connection that fails while it is out of the pool must not end the process.
      const failed = (error: Error) => {
        console.warn(`log export: its connection failed: ${error.message}`);
      };
      client.on("error", failed);
      const copy = client.query(copyTo(text));
      // COPY's stream also reports an error after it is destroyed: heard here, never thrown.
      copy.on("error", () => {});
      const lines = new CopyCsvLines();
      let finished = false;
      try {
        for await (const chunk of copy) {
          const out = lines.push(chunk as Buffer);
          if (out.length > 0) yield out;
        }
        if (lines.pending > 0) throw new Error("COPY ended inside a line");
        finished = true;
      } finally {
        if (finished) {
          client.off("error", failed);
          client.release();
        } else {
          // Mid-COPY: the connection cannot run another statement. Closing its socket ends the statement
          // (the backend's next write fails) and the pool forgets it.
          closeSocket(client);
          client.release(new Error("log export stopped"));
        }
      }
    },

    /** The `data` of the newest rows, for the dynamic fields and their types. */
    async sampleData(scope: LogScope, limit: number) {
      const rows = await queryRows<{ data: Record<string, unknown> }>(
        database,
        sql`SELECT data FROM conversation_logs WHERE ${scopeSql(scope)} ${NEWEST_FIRST} LIMIT ${param(limit, "int")}`,
      );
      return rows.map((row) => row.data);
    },

    /** Aggregates over the window grouped by day (at the offset): `day` number plus the named values. */
    async aggregateByDay(where: LogWhere, aggregates: readonly SQL[], offsetMinutes: number) {
      const offset = param(offsetMinutes * 60_000, "float8");
      const rows = await queryArraysWithoutJit(
        database,
        sql`SELECT ${daySql(sql`"timestamp"`, offset)} AS day, ${numbered(aggregates, "a")}
          FROM conversation_logs WHERE ${whereSql(where)} GROUP BY 1`,
      );
      return rows.map((row) => ({
        day: Number(row[0]),
        values: row.slice(1).map((value) => Number(value ?? 0)),
      }));
    },

    /**
     * The window's rows as rollup groups per day (at the offset) and dimension, with their count, duration
     * sum and answered count: whole buckets from the rollups (whole hours from the hourly one when days at
     * the offset are whole hours), the partial buckets at the window's edges from the rows, their data
     * reduced as the rollup reduces it. `span` is {@link rollupSpan} of the window. Each of `conditions`
     * (on the dimensions) is answered per group as a boolean. A 30-day window is a few hundred groups:
     * the caller evaluates the metrics on them (metric-rollup.ts).
     */
    async rollupGroupsByDay(
      where: LogWhere,
      span: { start: Date; end: Date },
      conditions: readonly SQL[],
      offsetMinutes: number,
    ): Promise<Array<RollupGroup & { day: number; passes: boolean[] }>> {
      const scope = rowsOf(where);
      const offsetMs = offsetMinutes * 60_000;
      const offset = param(offsetMs, "float8");
      const edge = (range: SQL) =>
        sql`SELECT ${daySql(sql`"timestamp"`, offset)} AS day, account_id, agent_id, direction, transfer, channel,
          conversation_log_rollup_data(data) AS data, 1::float8 AS n, duration::float8 AS duration_sum,
          (duration > 0)::int::float8 AS answered FROM conversation_logs WHERE ${scope} AND ${range}`;
      const buckets = rollupRows(scope, span, offsetMs % HOUR_MS === 0);
      const tests = conditions.map((condition, i) => sql`, (${condition}) AS ${sql.identifier(`c${i}`)}`);
      const rows = await queryArrays(
        database,
        sql`SELECT day, ${ROLLUP_GROUP}, n, duration_sum, answered${joined(tests, "")} FROM (
          SELECT day, ${ROLLUP_GROUP}, sum(n) AS n, sum(duration_sum) AS duration_sum, sum(answered) AS answered
          FROM (SELECT ${daySql(sql`bucket`, offset)} AS day, ${ROLLUP_GROUP}, n::float8 AS n,
            duration_sum::float8 AS duration_sum, answered::float8 AS answered FROM ${buckets} r
          UNION ALL ${edge(sql`"timestamp" >= ${instant(where.start)} AND "timestamp" < ${instant(span.start)}`)}
          UNION ALL ${edge(sql`"timestamp" >= ${instant(span.end)} AND "timestamp" <= ${instant(where.end)}`)}) parts
          GROUP BY day, ${ROLLUP_GROUP}) g`,
      );
      return rows.map((row) => ({
        day: Number(row[0]),
        accountId: row[1] === null ? null : Number(row[1]),
        agentId: row[2] === null ? null : Number(row[2]),
        direction: (row[3] as string | null) ?? null,
        transfer: String(row[4]),
        channel: String(row[5]),
        data: (row[6] ?? {}) as Record<string, unknown>,
        n: Number(row[7]),
        durationSum: Number(row[8]),
        answered: Number(row[9]),
        passes: conditions.map((_, i) => row[10 + i] === true),
      }));
    },

    /** Every row of the window (fixed fields and data), oldest first: core's evaluator runs over them. */
    async rowsForEvaluation(where: LogWhere, limit: number) {
      const select = selectList(
        LOG_FIXED_FIELDS.map((field) => ({
          sql:
            field === "timestamp"
              ? sql`(extract(epoch from "timestamp") * 1000)::float8`
              : fixedFieldSql(field, false),
          as: field,
        })),
      );
      return queryRows<Record<string, unknown>>(
        database,
        sql`SELECT ${select}, data FROM conversation_logs WHERE ${whereSql(where)}
          ORDER BY conversation_logs."timestamp", conversation_logs.id LIMIT ${param(limit, "int")}`,
      );
    },

    /** Calls flagged for review: a failed agent turn, or `reviewReason` in the log data. */
    async flagged(scope: LogScope, start: Date, end: Date, limit: number, offset: number) {
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
      }>(
        database,
        sql`SELECT l.org_id, l.account_name, l.agent_id, l.room_id, l.uuid,
          to_char(l."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts, l.duration, l.direction,
          l.data ->> 'reviewReason' AS review_reason,
          EXISTS (SELECT 1 FROM conversation_messages m WHERE m.conversation_uuid = l.uuid AND m.status = 'failed') AS failed
          FROM conversation_logs l WHERE ${scopeSql(scope, "l")}
          AND l."timestamp" >= ${instant(start)} AND l."timestamp" <= ${instant(end)}
          AND (l.data ? 'reviewReason' OR EXISTS (SELECT 1 FROM conversation_messages m WHERE m.conversation_uuid = l.uuid AND m.status = 'failed'))
          ORDER BY l."timestamp" DESC, l.id DESC LIMIT ${param(limit, "int")} OFFSET ${param(offset, "int")}`,
      );
    },

    /** Runs any other statement built with the `sql` template. */
    query<T extends Record<string, unknown>>(query: SQL) {
      return queryRows<T>(database, query);
    },
  };
}

export type LogsRepository = ReturnType<typeof createLogsRepository>;
