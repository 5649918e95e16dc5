// The machine-readable half of a benchmark's output: each figure also as one `BENCH {...}` line on stdout,
// beside the human-readable lines, so bench/run-all.ts can gather them, keep a baseline and guard it.

export type Better = "higher" | "lower";

export interface FigureInput {
  /** The benchmark's name: its file name without `.bench.ts`. */
  bench: string;
  name: string;
  value: number;
  unit: string;
  /** The figure's target, if it has one. */
  target?: number | null;
  better: Better;
  /**
   * A ratio that stays put on a shared, noisy machine (both sides measured in the same run, so load
   * slows both): `npm run bench:baseline` records it in baseline.json and the guard holds runs to it.
   */
  stable?: boolean;
}

export interface Figure extends Omit<FigureInput, "target" | "stable"> {
  target: number | null;
  /** value / target (null without a target); whether that meets it depends on `better`. */
  ratioToTarget: number | null;
  meets: boolean | null;
  stable: boolean;
}

export const FIGURE_PREFIX = "BENCH ";

export function toFigure(input: FigureInput): Figure {
  const target = input.target ?? null;
  const usable = target !== null && Number.isFinite(input.value);
  return {
    bench: input.bench,
    name: input.name,
    value: input.value,
    unit: input.unit,
    target,
    better: input.better,
    // A target of 0 (no 5xx answers) has no ratio, but is met or not all the same.
    ratioToTarget: usable && target !== 0 ? input.value / target : null,
    meets: usable ? (input.better === "higher" ? input.value >= target : input.value <= target) : null,
    stable: input.stable ?? false,
  };
}

export function figureLine(input: FigureInput): string {
  return `${FIGURE_PREFIX}${JSON.stringify(toFigure(input))}`;
}

/** Prints the figure as one `BENCH {...}` line. */
export function reportFigure(input: FigureInput): void {
  console.log(figureLine(input));
}

/** The figure a `BENCH {...}` output line carries, or null for any other line. */
export function parseFigureLine(line: string): Figure | null {
  if (!line.startsWith(FIGURE_PREFIX)) return null;
  try {
    const parsed: unknown = JSON.parse(line.slice(FIGURE_PREFIX.length));
    if (typeof parsed !== "object" || parsed === null) return null;
    const figure = parsed as Partial<Figure>;
    if (
      typeof figure.bench !== "string" ||
      typeof figure.name !== "string" ||
      typeof figure.value !== "number" ||
      (figure.better !== "higher" && figure.better !== "lower")
    )
      return null;
    return figure as Figure;
  } catch {
    return null;
  }
}
