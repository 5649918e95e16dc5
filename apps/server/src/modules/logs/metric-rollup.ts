import {
  compileMetricFormula,
  type FormulaRow,
  isFormulaTruthy,
  type MetricAggregation,
  toFormulaNumber,
} from "@switchboard/core";
import { rollupKind } from "./metric-sql.ts";

/** One group of rollup rows (whole buckets and the window's edge rows alike): its dimensions and sums. */
export type RollupGroup = {
  accountId: number | null;
  agentId: number | null;
  direction: string | null;
  transfer: string;
  channel: string;
  /** The rolled-up keys of the rows' data (ROLLUP_DATA_KEYS), each only when the rows have it. */
  data: Record<string, unknown>;
  n: number;
  durationSum: number;
  answered: number;
};

/** A metric's part of one group: the numerator and, for avg, the rows it averages over. */
export type RollupShare = { numerator: number; denominator: number };

/** A group as core's evaluator reads a row: its dimensions and rolled-up data (built once per group). */
export function rollupRow(group: RollupGroup): FormulaRow {
  return {
    ...group.data,
    accountId: group.accountId,
    agentId: group.agentId,
    direction: group.direction,
    transfer: group.transfer,
  };
}

/**
 * A metric over rollup groups, or null when the rollup cannot answer it (see rollupKind): the share of each
 * group, computed with core's compiled formula on the group's dimensions (`row`, {@link rollupRow}: the
 * value every one of its `n` rows has) and weighted by `n`, so it equals core's evaluator over the rows.
 */
export function metricRollupShare(
  formula: string,
  aggregation: MetricAggregation,
  now: number,
): ((group: RollupGroup, row: FormulaRow) => RollupShare) | null {
  const kind = rollupKind(formula, aggregation);
  if (kind === null) return null;
  const avg = aggregation === "avg";
  if (kind === "duration")
    return (group) => ({ numerator: group.durationSum, denominator: avg ? group.n : 0 });
  if (kind === "answered") return (group) => ({ numerator: group.answered, denominator: avg ? group.n : 0 });
  const compiled = compileMetricFormula(formula);
  const ctx = { rows: [] as FormulaRow[], now };
  return (group, row) => {
    const value = compiled(row, ctx);
    switch (aggregation) {
      case "count":
        return { numerator: isFormulaTruthy(value) ? group.n : 0, denominator: 0 };
      case "avg": {
        if (value === null) return { numerator: 0, denominator: 0 };
        const number = typeof value === "number" && !Number.isNaN(value) ? value : toFormulaNumber(value);
        return { numerator: number * group.n, denominator: group.n };
      }
      default: {
        const number = typeof value === "number" && !Number.isNaN(value) ? value : toFormulaNumber(value);
        return { numerator: number * group.n, denominator: 0 };
      }
    }
  };
}
