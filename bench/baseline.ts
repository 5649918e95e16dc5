// bench/baseline.json: the last accepted values of the stable ratios (figures reported with `stable: true`)
// at smoke size, and the guard that holds a run to them. A ratio may fall by up to a third (the machine is
// shared and noisy); more than that is a regression. Absolute figures are never in the baseline.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Better, Figure } from "./report.ts";

export const BASELINE_FILE = path.join(import.meta.dirname, "baseline.json");
/** How far a guarded ratio may fall from its baseline before the guard fails. */
export const MAX_FALL = 1 / 3;

export interface BaselineEntry {
  value: number;
  unit: string;
  better: Better;
}

export interface Baseline {
  /** The size the figures were taken at: the guard compares only runs of that size. */
  size: string;
  note: string;
  /** Per benchmark, per figure name. */
  benches: Record<string, Record<string, BaselineEntry>>;
}

export function readBaseline(file = BASELINE_FILE): Baseline {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Baseline;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { size: "smoke", note: "", benches: {} };
    throw error;
  }
}

export function writeBaseline(baseline: Baseline, file = BASELINE_FILE): void {
  writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}

/** The names of the ratios the baseline holds for `bench` (none: the bench guards no ratio). */
export function guardedRatios(baseline: Baseline, bench: string): string[] {
  return Object.keys(baseline.benches[bench] ?? {});
}

/**
 * How much worse `value` is than `base`, as the fraction the figure fell by: 0.25 = a quarter worse.
 * For a lower-is-better figure that is the fall of its inverse (1.5x the time = a third worse), so a
 * third means the same in both directions. Negative = better.
 */
export function fallFrom(base: number, value: number, better: Better): number {
  if (better === "higher") return 1 - value / base;
  return 1 - base / value;
}

export interface GuardVerdict {
  bench: string;
  name: string;
  baseline: BaselineEntry;
  /** null: the run did not report the figure. */
  value: number | null;
  /** Fraction fallen from the baseline (negative = improved); null when not reported. */
  fall: number | null;
  failed: boolean;
}

/** Holds every guarded ratio of the benches that ran to the baseline. */
export function guard(baseline: Baseline, figures: Figure[], benchesRun: string[]): GuardVerdict[] {
  const verdicts: GuardVerdict[] = [];
  for (const bench of benchesRun) {
    for (const [name, entry] of Object.entries(baseline.benches[bench] ?? {})) {
      const figure = figures.find((f) => f.bench === bench && f.name === name);
      const value = figure && Number.isFinite(figure.value) ? figure.value : null;
      const fall = value === null ? null : fallFrom(entry.value, value, entry.better);
      verdicts.push({
        bench,
        name,
        baseline: entry,
        value,
        fall,
        failed: fall === null || Number.isNaN(fall) || fall > MAX_FALL,
      });
    }
  }
  return verdicts;
}

const show = (value: number, unit: string) =>
  `${value.toLocaleString("en-US", { maximumSignificantDigits: 4 })}${unit === "x" ? "x" : ` ${unit}`}`;

export function describeVerdict(verdict: GuardVerdict): string {
  const { bench, name, baseline, value, fall } = verdict;
  const base = show(baseline.value, baseline.unit);
  if (value === null || fall === null) return `${bench} ${name}: not reported by the run (baseline ${base})`;
  const moved = fall > 0 ? `${(fall * 100).toFixed(0)}% worse` : "level or better";
  const limit = verdict.failed ? `, more than the ${(MAX_FALL * 100).toFixed(0)}% allowed` : "";
  return `${bench} ${name} (${baseline.better} is better): ${show(value, baseline.unit)} against baseline ${base} (${(value / baseline.value).toFixed(2)} of it): ${moved}${limit}`;
}

/**
 * A new baseline from one or more runs of the same benches: per stable ratio, the worst value of the runs
 * (the lowest where higher is better, the highest where lower is), so ordinary noise does not trip the
 * guard. Benches that did not run keep their entries.
 */
export function baselineFromRuns(
  previous: Baseline,
  runs: Figure[][],
  benchesRun: string[],
  size: string,
  note: string,
): Baseline {
  const benches: Baseline["benches"] = {};
  for (const [bench, entries] of Object.entries(previous.benches))
    if (!benchesRun.includes(bench)) benches[bench] = entries;
  for (const run of runs) {
    for (const figure of run) {
      if (!figure.stable || !benchesRun.includes(figure.bench) || !Number.isFinite(figure.value)) continue;
      const entries = benches[figure.bench] ?? {};
      benches[figure.bench] = entries;
      const known = entries[figure.name];
      const worse =
        !known || (figure.better === "higher" ? figure.value < known.value : figure.value > known.value);
      if (worse) entries[figure.name] = { value: figure.value, unit: figure.unit, better: figure.better };
    }
  }
  // Four significant digits: more would only record noise.
  for (const entries of Object.values(benches))
    for (const entry of Object.values(entries)) entry.value = Number(entry.value.toPrecision(4));
  const sorted = Object.fromEntries(Object.entries(benches).sort(([a], [b]) => a.localeCompare(b)));
  return { size, note, benches: sorted };
}
