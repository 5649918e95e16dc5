import { compileFormula } from "../formula/compiler.ts";
import type { CompiledFormula, FormulaContext, FormulaRow } from "../formula/types.ts";
import { isFormulaTruthy, toFormulaNumber } from "../formula/values.ts";
import { METRIC_DEFAULTS, type Metric, type MetricFormat } from "./metric.ts";

const CACHE_LIMIT = 256;
const compiled = new Map<string, CompiledFormula>();

/** The compiled formula for `text`, compiled once and kept (the last 256 formulas). */
export function compileMetricFormula(text: string): CompiledFormula {
  const source = text.trim() === "" ? METRIC_DEFAULTS.formula : text;
  let formula = compiled.get(source);
  if (formula === undefined) {
    formula = compileFormula(source);
    if (compiled.size >= CACHE_LIMIT) {
      const oldest = compiled.keys().next().value;
      if (oldest !== undefined) compiled.delete(oldest);
    }
    compiled.set(source, formula);
  }
  return formula;
}

export type ComputeMetricOptions = {
  /** Clock for NOW() in ms; default Date.now(), read once per computation. */
  now?: number;
};

/**
 * The metric's value over `rows` (already filtered by the caller): the formula evaluated on every
 * row (aggregate functions in it see all `rows`), aggregated (sum, count of truthy values, or mean
 * of the non-null values), times `scale`. No rows give 0. A blank formula counts as "1".
 * Throws FormulaError when the formula does not parse or compile.
 */
export function computeMetric(
  metric: Pick<Metric, "formula" | "aggregation" | "scale">,
  rows: readonly FormulaRow[],
  options: ComputeMetricOptions = {},
): number {
  const formula = compileMetricFormula(metric.formula ?? METRIC_DEFAULTS.formula);
  const ctx: FormulaContext = { rows, now: options.now ?? Date.now() };
  let result = 0;
  switch (metric.aggregation) {
    case "count": {
      for (const row of rows) if (isFormulaTruthy(formula(row, ctx))) result++;
      break;
    }
    case "avg": {
      let total = 0;
      let counted = 0;
      for (const row of rows) {
        const value = formula(row, ctx);
        if (value === null) continue;
        total += typeof value === "number" && !Number.isNaN(value) ? value : toFormulaNumber(value);
        counted++;
      }
      result = counted === 0 ? 0 : total / counted;
      break;
    }
    default: {
      for (const row of rows) {
        const value = formula(row, ctx);
        result += typeof value === "number" && !Number.isNaN(value) ? value : toFormulaNumber(value);
      }
    }
  }
  const scale = Number.isFinite(metric.scale) ? metric.scale : METRIC_DEFAULTS.scale;
  return result * scale;
}

/** One formatter per precision: `toLocaleString` with options builds a new one for every value. */
const numberFormats = new Map<number, Intl.NumberFormat>();
function numberFormat(digits: number): Intl.NumberFormat {
  let format = numberFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(digits, format);
  }
  return format;
}

/**
 * Display text of a metric value: en-US digits with thousands separators and exactly `precision`
 * decimals (0 to 20), followed by `%` for the percentage format (the value is not multiplied: scale
 * the metric by 100). A value that is not finite shows as 0; a value that rounds to zero never shows
 * a minus sign.
 */
export function formatMetricValue(value: number, format: MetricFormat, precision: number): string {
  const digits = Number.isFinite(precision) ? Math.min(20, Math.max(0, Math.trunc(precision))) : 0;
  const finite = Number.isFinite(value) ? value : 0;
  let text = numberFormat(digits).format(finite);
  if (/^-0(?:\.0*)?$/.test(text)) text = text.slice(1);
  return format === "percentage" ? `${text}%` : text;
}

/** formatMetricValue with the metric's own format and precision. */
export function formatMetric(metric: Pick<Metric, "format" | "precision">, value: number): string {
  return formatMetricValue(value, metric.format, metric.precision);
}
