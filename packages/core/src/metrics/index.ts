export {
  type ComputeMetricOptions,
  compileMetricFormula,
  computeMetric,
  formatMetric,
  formatMetricValue,
} from "./compute.ts";
export { APPOINTMENT_BOOKED_FIELD, DEFAULT_METRICS, TASK_METRIC_FIELDS } from "./default-metrics.ts";
export {
  createMetric,
  DEFAULT_METRIC_CHANNELS,
  METRIC_AGGREGATIONS,
  METRIC_DEFAULTS,
  METRIC_FORMATS,
  type Metric,
  type MetricAggregation,
  type MetricFormat,
  metricChannels,
  type SavedMetric,
  toSavedMetric,
} from "./metric.ts";
