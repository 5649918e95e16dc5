import { describe, expect, it } from "vitest";
import { type Baseline, baselineFromRuns, describeVerdict, guard } from "./baseline.ts";
import { type FigureInput, toFigure } from "./report.ts";

const baseline: Baseline = {
  size: "smoke",
  note: "",
  benches: {
    formula: { "compiled/naive": { value: 18, unit: "x", better: "higher" } },
    logs: { "metrics time/page time": { value: 2, unit: "x", better: "lower" } },
  },
};
const figure = (input: Partial<FigureInput> & Pick<FigureInput, "bench" | "name" | "value">) =>
  toFigure({ unit: "x", better: "higher", ...input });

describe("the benchmark guard", () => {
  it("lets a higher-is-better ratio fall by up to a third", () => {
    const [verdict] = guard(
      baseline,
      [figure({ bench: "formula", name: "compiled/naive", value: 12.1 })],
      ["formula"],
    );
    expect(verdict?.failed).toBe(false);
  });

  it("fails a ratio that fell by more than a third, saying which and by how much", () => {
    const [verdict] = guard(
      baseline,
      [figure({ bench: "formula", name: "compiled/naive", value: 9 })],
      ["formula"],
    );
    expect(verdict?.failed).toBe(true);
    expect(describeVerdict(verdict as NonNullable<typeof verdict>)).toBe(
      "formula compiled/naive (higher is better): 9x against baseline 18x (0.50 of it): 50% worse, more than the 33% allowed",
    );
  });

  it("holds a lower-is-better ratio to 1.5 times its baseline", () => {
    const run = (value: number) =>
      guard(
        baseline,
        [figure({ bench: "logs", name: "metrics time/page time", value, better: "lower" })],
        ["logs"],
      )[0]?.failed;
    expect(run(2.9)).toBe(false);
    expect(run(3.1)).toBe(true);
  });

  it("fails when a bench that ran did not report its guarded ratio", () => {
    const verdicts = guard(baseline, [], ["formula"]);
    expect(verdicts.map((v) => [v.name, v.failed])).toEqual([["compiled/naive", true]]);
  });

  it("never gates on absolute figures, nor on benches that did not run", () => {
    const figures = [
      figure({ bench: "formula", name: "compiled/naive", value: 18 }),
      figure({ bench: "formula", name: "compiled rate", value: 1, unit: "row-evaluations/s", target: 5e6 }),
    ];
    const verdicts = guard(baseline, figures, ["formula"]);
    expect(verdicts.map((v) => [v.bench, v.name, v.failed])).toEqual([["formula", "compiled/naive", false]]);
  });
});

describe("a new baseline", () => {
  it("takes the worst of the runs for each stable ratio and keeps benches that did not run", () => {
    const runs = [
      [
        figure({ bench: "formula", name: "compiled/naive", value: 20, stable: true }),
        figure({ bench: "formula", name: "compiled rate", value: 9e6 }),
      ],
      [figure({ bench: "formula", name: "compiled/naive", value: 16, stable: true })],
      [figure({ bench: "formula", name: "compiled/naive", value: 19, stable: true })],
    ];
    const next = baselineFromRuns(baseline, runs, ["formula"], "smoke", "note");
    expect(next.benches).toEqual({
      formula: { "compiled/naive": { value: 16, unit: "x", better: "higher" } },
      logs: baseline.benches.logs,
    });
  });

  it("takes the highest where lower is better", () => {
    const runs = [1.5, 2.5, 2].map((value) => [
      figure({ bench: "logs", name: "metrics time/page time", value, better: "lower", stable: true }),
    ]);
    const next = baselineFromRuns(baseline, runs, ["logs"], "smoke", "note");
    expect(next.benches.logs?.["metrics time/page time"]?.value).toBe(2.5);
  });
});
