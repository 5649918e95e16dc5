// Over 400 lines on purpose: the dashboard's metrics from saved definition to figures (resolve, compute a
// group in one SQL pass or with core's evaluator, daily series, save) read as one flow around
// computeGroup; the SQL compiler is already apart (metric-sql.ts).
import type { MetricDefinition, MetricResult } from "@switchboard/api";
import {
  APPOINTMENT_BOOKED_FIELD,
  compileMetricFormula,
  computeMetric,
  DAY_MS,
  DEFAULT_FILTER_FIELD_TYPES,
  DEFAULT_METRICS,
  FormulaError,
  type FormulaRow,
  formatMetric,
  LOG_FIXED_FIELDS,
  METRIC_DEFAULTS,
  metricChannels,
  resolveLogDateWindow,
  TASK_METRIC_FIELDS,
  validateFormula,
} from "@switchboard/core";
import { eq, type SQL, sql } from "drizzle-orm";
import type { Access, AccountRow } from "../../access/access.ts";
import { ApiError, badRequest } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import { accounts } from "../../db/schema/index.ts";
import type { LogScope } from "./log-scope.ts";
import { channelSql, type LogsRepository, type LogWhere, rollupSpan } from "./logs.repository.ts";
import { filterCondition } from "./logs.service.ts";
import { metricRollupShare, rollupRow } from "./metric-rollup.ts";
import { metricAggregateSql, ROLLUP_BUCKET_MS, rollupKind } from "./metric-sql.ts";

/** Most rows core's evaluator runs over for one metric (formulas SQL cannot compute). */
export const EVALUATOR_ROW_LIMIT = 200_000;

export const METRIC_MESSAGES = {
  tooManyRows: `This formula is computed row by row, and the date range holds more than ${EVALUATOR_ROW_LIMIT.toLocaleString("en-US")} calls: choose a shorter range.`,
  duplicateName: (name: string) => `Two metrics are named ${name}: give each its own name.`,
} as const;

type SavedMetric = Omit<MetricDefinition, "field">;

function toSaved(metric: MetricDefinition): SavedMetric {
  const { field: _field, ...saved } = metric;
  return saved;
}

function withDefaults(input: Record<string, unknown>): SavedMetric | null {
  if (typeof input.name !== "string" || typeof input.title !== "string") return null;
  return {
    filters: {},
    ...METRIC_DEFAULTS,
    ...(input as Partial<SavedMetric>),
    name: input.name,
    title: input.title,
  } as SavedMetric;
}

function metricsIn(settings: unknown): SavedMetric[] | null {
  if (typeof settings !== "object" || settings === null) return null;
  const list = (settings as Record<string, unknown>).metrics;
  if (!Array.isArray(list) || list.length === 0) return null;
  const metrics = list
    .filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null)
    .map(withDefaults)
    .filter((metric): metric is SavedMetric => metric !== null);
  return metrics.length > 0 ? metrics : null;
}

function defaultOrgMetricsIn(settings: unknown): SavedMetric[] | null {
  if (typeof settings !== "object" || settings === null) return null;
  return metricsIn((settings as Record<string, unknown>).defaultOrgSettings);
}

const dayLabel = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

type Deps = {
  db: Database;
  repo: LogsRepository;
  scopeOf: (target: AccountRow) => Promise<LogScope>;
  loadAccount: (id: number) => Promise<AccountRow | null>;
  fieldsOf: (scope: LogScope) => Promise<Array<{ name: string }>>;
  now?: () => number;
};

export function createMetricsService(deps: Deps) {
  const now = deps.now ?? Date.now;

  /** The dashboard's metrics: the account's own, else defaultOrgSettings up the hierarchy, else spec §9's. */
  async function resolveMetrics(target: AccountRow) {
    const own = metricsIn(target.settings);
    if (own) return { source: "account" as const, metrics: own };
    const chain: AccountRow[] = [target];
    for (const id of [
      target.accountType === "agent" ? target.organizationId : null,
      target.resellerId,
      target.partnerId,
    ]) {
      if (id && id !== target.id) {
        const account = await deps.loadAccount(id);
        if (account) chain.push(account);
      }
    }
    if (target.accountType === "agent" && chain[1]) {
      const organization = metricsIn(chain[1].settings);
      if (organization) return { source: "account" as const, metrics: organization };
    }
    for (const account of chain) {
      const defaults = defaultOrgMetricsIn(account.settings);
      if (defaults) return { source: "defaultOrgSettings" as const, metrics: defaults };
    }
    return { source: "default" as const, metrics: DEFAULT_METRICS.map((metric) => ({ ...metric })) };
  }

  function days(window: { start: number; end: number }, offsetMs: number): number[] {
    const first = Math.floor((window.start + offsetMs) / DAY_MS);
    const last = Math.floor((window.end + offsetMs) / DAY_MS);
    const list: number[] = [];
    for (let day = first; day <= last && list.length < 3700; day++) list.push(day);
    return list;
  }

  function result(
    metric: SavedMetric,
    window: { start: number; end: number },
    parts: {
      value: number;
      series: Array<{ date: string; value: number }>;
      rows: number;
      engine: "sql" | "evaluator";
      error?: string | null;
    },
  ): MetricResult {
    const scale = Number.isFinite(metric.scale) ? metric.scale : 1;
    const value = parts.value * scale;
    return {
      // Every figure says which channels it counts (a metric saved without them counts calls).
      metric: { ...metric, channels: metricChannels(metric) },
      value,
      text: formatMetric(metric, value),
      series: parts.series.map((point) => ({ date: point.date, value: point.value * scale })),
      window,
      rows: parts.rows,
      engine: parts.engine,
      error: parts.error ?? null,
    };
  }

  function failed(metric: SavedMetric, window: { start: number; end: number }, error: string): MetricResult {
    return result(metric, window, { value: 0, series: [], rows: 0, engine: "evaluator", error });
  }

  /** Metrics sharing one window: the SQL ones in one grouped statement, the rest through the evaluator. */
  async function computeGroup(
    scope: LogScope,
    metrics: Array<{ metric: SavedMetric; index: number }>,
    window: { start: number; end: number },
    offsetMinutes: number,
    at: number,
  ): Promise<Array<{ index: number; result: MetricResult }>> {
    const offsetMs = offsetMinutes * 60_000;
    const dayList = days(window, offsetMs);
    const where: LogWhere = {
      scope,
      // Each metric names its channels in its own condition (the rollup keeps the channel too).
      channels: null,
      start: new Date(window.start),
      end: new Date(window.end),
      filter: { sql: sql`TRUE` },
    };
    const out: Array<{ index: number; result: MetricResult }> = [];
    type Entry = {
      metric: SavedMetric;
      index: number;
      /** The metric's rows: its channels and its own filters. */
      filter: LogWhere["filter"];
      /** Its own filters alone, when it has any (the rollup path checks the channels itself). */
      own: SQL | null;
      channels: readonly string[];
      slots: number[];
    };
    const sqlMetrics: Entry[] = [];
    const rollupMetrics: Entry[] = [];
    const evaluated: Entry[] = [];
    // Whole 15-minute buckets come from the rollup when days at this offset are made of whole buckets.
    const span = offsetMs % ROLLUP_BUCKET_MS === 0 ? rollupSpan(where.start, where.end) : null;
    for (const { metric, index } of metrics) {
      let filter: LogWhere["filter"];
      let own: LogWhere["filter"];
      const channels = metricChannels(metric);
      try {
        own = filterCondition(metric.filters, at, offsetMinutes);
        filter = { ...own, sql: sql`${channelSql(channels)} AND (${own.sql})` };
        compileMetricFormula(metric.formula);
      } catch (error) {
        if (error instanceof FormulaError || error instanceof ApiError) {
          out.push({ index, result: failed(metric, window, error.message) });
          continue;
        }
        throw error;
      }
      const translatable = metricAggregateSql(metric.formula, metric.aggregation, sql`TRUE`) !== null;
      const rolls =
        translatable &&
        span !== null &&
        filter.onRollup === true &&
        rollupKind(metric.formula, metric.aggregation) !== null;
      (rolls ? rollupMetrics : translatable ? sqlMetrics : evaluated).push({
        metric,
        index,
        filter,
        own: Object.keys(metric.filters).length > 0 ? own.sql : null,
        channels,
        slots: [],
      });
    }
    const grouped: Array<{ day: number; values: number[] }> = [];
    if (rollupMetrics.length > 0 && span !== null) {
      // A few hundred groups (day and dimensions) from the rollups and the window's edge rows; each metric
      // is evaluated on them by core's formula (its own filters answered per group in SQL).
      const conditions: SQL[] = [];
      const measured = rollupMetrics.map((entry, i) => {
        const share = metricRollupShare(entry.metric.formula, entry.metric.aggregation, at);
        if (share === null) throw new Error("metric no longer rolls up");
        entry.slots = [i * 3, i * 3 + 1, i * 3 + 2];
        const test = entry.own === null ? -1 : conditions.push(entry.own) - 1;
        return { entry, share, test };
      });
      const byDay = new Map<number, number[]>();
      for (const group of await deps.repo.rollupGroupsByDay(where, span, conditions, offsetMinutes)) {
        let values = byDay.get(group.day);
        if (!values) {
          values = new Array<number>(rollupMetrics.length * 3).fill(0);
          byDay.set(group.day, values);
        }
        const row = rollupRow(group);
        for (const { entry, share, test } of measured) {
          if (!entry.channels.includes(group.channel) || (test >= 0 && !group.passes[test])) continue;
          const [num = 0, den = 0, rows = 0] = entry.slots;
          const part = share(group, row);
          values[num] = (values[num] ?? 0) + part.numerator;
          values[den] = (values[den] ?? 0) + part.denominator;
          values[rows] = (values[rows] ?? 0) + group.n;
        }
      }
      for (const [day, values] of byDay) grouped.push({ day, values });
    }
    if (sqlMetrics.length > 0) {
      const offsetSlots = rollupMetrics.length * 3;
      const all: SQL[] = [];
      for (const entry of sqlMetrics) {
        const condition = sql`(${entry.filter.sql})`;
        const aggregates = metricAggregateSql(entry.metric.formula, entry.metric.aggregation, condition);
        if (aggregates === null) throw new Error("metric no longer translates");
        entry.slots = [offsetSlots + all.length, offsetSlots + all.length + 1, offsetSlots + all.length + 2];
        all.push(
          aggregates.numerator,
          aggregates.denominator ?? sql`0::float8`,
          sql`count(*) FILTER (WHERE ${condition})::float8`,
        );
      }
      const rows = await deps.repo.aggregateByDay(where, all, offsetMinutes);
      for (const row of rows)
        grouped.push({ day: row.day, values: [...new Array<number>(offsetSlots).fill(0), ...row.values] });
    }
    if (rollupMetrics.length + sqlMetrics.length > 0) {
      const byDay = new Map<number, number[]>();
      for (const row of grouped) {
        const values = byDay.get(row.day);
        if (!values) byDay.set(row.day, [...row.values]);
        else for (const [i, value] of row.values.entries()) values[i] = (values[i] ?? 0) + value;
      }
      for (const { metric, index, slots } of [...rollupMetrics, ...sqlMetrics]) {
        const [num = 0, den = 0, rowsSlot = 0] = slots;
        let total = 0;
        let totalDen = 0;
        let rows = 0;
        const series = dayList.map((day) => {
          const values = byDay.get(day);
          const n = values?.[num] ?? 0;
          const d = values?.[den] ?? 0;
          total += n;
          totalDen += d;
          rows += values?.[rowsSlot] ?? 0;
          return { date: dayLabel(day), value: metric.aggregation === "avg" ? (d === 0 ? 0 : n / d) : n };
        });
        const value = metric.aggregation === "avg" ? (totalDen === 0 ? 0 : total / totalDen) : total;
        out.push({ index, result: result(metric, window, { value, series, rows, engine: "sql" }) });
      }
    }
    for (const { metric, index, filter } of evaluated) {
      const raw = await deps.repo.rowsForEvaluation({ ...where, filter }, EVALUATOR_ROW_LIMIT + 1);
      if (raw.length > EVALUATOR_ROW_LIMIT) {
        out.push({ index, result: failed(metric, window, METRIC_MESSAGES.tooManyRows) });
        continue;
      }
      const rows = raw.map(toFormulaRow);
      const byDay = new Map<number, FormulaRow[]>();
      for (const row of rows) {
        const day = Math.floor(((row.timestamp as number) + offsetMs) / DAY_MS);
        const list = byDay.get(day);
        if (list) list.push(row);
        else byDay.set(day, [row]);
      }
      try {
        const series = dayList.map((day) => ({
          date: dayLabel(day),
          value: computeMetric({ ...metric, scale: 1 }, byDay.get(day) ?? [], { now: at }),
        }));
        const value = computeMetric({ ...metric, scale: 1 }, rows, { now: at });
        out.push({
          index,
          result: result(metric, window, { value, series, rows: rows.length, engine: "evaluator" }),
        });
      } catch (error) {
        if (!(error instanceof FormulaError)) throw error;
        out.push({ index, result: failed(metric, window, error.message) });
      }
    }
    return out;
  }

  async function compute(
    scope: LogScope,
    metrics: SavedMetric[],
    dateFilter: string | undefined,
    offsetMinutes: number,
  ): Promise<MetricResult[]> {
    const at = now();
    const groups = new Map<string, Array<{ metric: SavedMetric; index: number }>>();
    metrics.forEach((metric, index) => {
      const key = metric.dateFilter?.trim() || dateFilter?.trim() || "";
      const list = groups.get(key);
      if (list) list.push({ metric, index });
      else groups.set(key, [{ metric, index }]);
    });
    const results: MetricResult[] = new Array(metrics.length);
    for (const [key, members] of groups) {
      const window = resolveLogDateWindow(key, at);
      for (const { index, result: item } of await computeGroup(scope, members, window, offsetMinutes, at))
        results[index] = item;
    }
    return results;
  }

  async function dashboard(
    access: Access,
    query: { dateFilter?: string | undefined; utcOffsetMinutes?: number | undefined },
  ) {
    const { source, metrics } = await resolveMetrics(access.target);
    const scope = await deps.scopeOf(access.target);
    const offset = query.utcOffsetMinutes ?? 0;
    return {
      success: true as const,
      source,
      window: resolveLogDateWindow(query.dateFilter, now()),
      metrics: await compute(scope, metrics, query.dateFilter, offset),
    };
  }

  async function evaluate(
    access: Access,
    body: {
      metric: MetricDefinition;
      dateFilter?: string | undefined;
      utcOffsetMinutes?: number | undefined;
    },
  ) {
    const scope = await deps.scopeOf(access.target);
    const [item] = await compute(scope, [toSaved(body.metric)], body.dateFilter, body.utcOffsetMinutes ?? 0);
    if (!item) throw new Error("metric not computed");
    return { success: true as const, result: item };
  }

  /** The names a formula may use: the fixed fields, the fields the rows carry, the builder's defaults. */
  async function knownFields(scope: LogScope): Promise<string[]> {
    const fields = (await deps.fieldsOf(scope)).map((field) => field.name);
    return [
      ...new Set([
        ...LOG_FIXED_FIELDS,
        ...fields,
        APPOINTMENT_BOOKED_FIELD,
        ...TASK_METRIC_FIELDS,
        ...Object.keys(DEFAULT_FILTER_FIELD_TYPES),
      ]),
    ];
  }

  async function save(access: Access, body: { metrics: MetricDefinition[] }) {
    const scope = await deps.scopeOf(access.target);
    const known = await knownFields(scope);
    const names = new Set<string>();
    const metrics = body.metrics.map((metric) => ({ ...toSaved(metric), channels: metricChannels(metric) }));
    for (const metric of metrics) {
      if (names.has(metric.name)) throw badRequest(METRIC_MESSAGES.duplicateName(metric.name));
      names.add(metric.name);
      const check = validateFormula(metric.formula, known);
      if (!check.valid) throw badRequest(`${metric.title}: ${check.errors[0] ?? "Formula is not valid"}`);
      filterCondition(metric.filters, now());
    }
    const value = metrics.length === 0 ? null : metrics;
    await deps.db
      .update(accounts)
      .set({
        settings:
          value === null
            ? sql`${accounts.settings} - 'metrics'`
            : sql`${accounts.settings} || jsonb_build_object('metrics', ${JSON.stringify(value)}::jsonb)`,
      })
      .where(eq(accounts.id, access.target.id));
    return { success: true as const, metrics };
  }

  return { dashboard, evaluate, save, resolveMetrics, compute };
}

/** A row as core's evaluator reads it: the fixed fields (timestamp in ms), then data not named like them. */
export function toFormulaRow(row: Record<string, unknown>): FormulaRow {
  const out: Record<string, unknown> = {};
  for (const field of LOG_FIXED_FIELDS) out[field] = row[field] ?? null;
  out.timestamp = Number(row.timestamp);
  const data = (row.data ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(data)) {
    if (!FIXED_LOWER.has(key.toLowerCase())) out[key] = value;
  }
  return out;
}

const FIXED_LOWER = new Set(LOG_FIXED_FIELDS.map((field) => field.toLowerCase()));

export type MetricsService = ReturnType<typeof createMetricsService>;
