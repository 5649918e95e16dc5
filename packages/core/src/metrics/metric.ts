/**
 * Custom dashboard metrics (product spec §3 "Metric"): a formula evaluated per conversation log row,
 * aggregated over the rows that pass the metric's filters, scaled, and shown as an integer or a
 * percentage with a number of decimals.
 */
import type { Filters } from "../filters/normalize.ts";
import { LOG_CHANNELS, type LogChannel } from "../logs/log-channels.ts";

export const METRIC_AGGREGATIONS = ["sum", "count", "avg"] as const;
/**
 * sum: total of the formula's values; count: number of rows whose value is truthy (non-zero,
 * non-empty); avg: mean of the values over the rows whose value is not null.
 */
export type MetricAggregation = (typeof METRIC_AGGREGATIONS)[number];

export const METRIC_FORMATS = ["integer", "percentage"] as const;
/** integer: a plain number; percentage: the number followed by `%` (scale it by 100 yourself). */
export type MetricFormat = (typeof METRIC_FORMATS)[number];

export type Metric = {
  /** Stable key of the metric. */
  name: string;
  /** Label shown on the dashboard. */
  title: string;
  /** Log filters selecting the rows the metric runs over (applied by the caller). */
  filters: Filters;
  /** Formula evaluated on every row (spec §5.1); default "1". */
  formula: string;
  aggregation: MetricAggregation;
  /** Factor applied to the aggregate; default 1. */
  scale: number;
  format: MetricFormat;
  /** Decimals shown; default 0. */
  precision: number;
  /**
   * The channels whose rows the metric counts (see LOG_CHANNELS); {@link DEFAULT_METRIC_CHANNELS} when
   * absent (metrics saved before channels were kept): a dashboard figure says which conversations it counts.
   */
  channels?: LogChannel[];
  /** Date window of the rows, in the log screen's form ("30 day", a range); the dashboard's when absent. */
  dateFilter?: string;
  /** Field picked in the formula builder; editor state only, dropped on save. */
  field?: string;
};

/** A metric as stored in account settings: everything but `field`. */
export type SavedMetric = Omit<Metric, "field">;

export const METRIC_DEFAULTS = {
  formula: "1",
  aggregation: "sum",
  scale: 1,
  format: "integer",
  precision: 0,
} as const satisfies Partial<Metric>;

/** The channels a metric counts when it names none: calls. */
export const DEFAULT_METRIC_CHANNELS: readonly LogChannel[] = ["voice"];

/** The channels `metric` counts: its own (known ones, each once, in LOG_CHANNELS order), else calls. */
export function metricChannels(metric: { channels?: readonly string[] | undefined }): LogChannel[] {
  const own = LOG_CHANNELS.filter((channel) => metric.channels?.includes(channel));
  return own.length > 0 ? own : [...DEFAULT_METRIC_CHANNELS];
}

/** A metric with the spec's defaults for whatever `input` leaves out. */
export function createMetric(input: Partial<Metric> & Pick<Metric, "name" | "title">): Metric {
  return {
    filters: {},
    ...METRIC_DEFAULTS,
    ...input,
  };
}

/** The metric to save: `field` dropped, the rest unchanged (the input is not modified). */
export function toSavedMetric(metric: Metric): SavedMetric {
  const { field: _field, ...saved } = metric;
  return saved;
}
