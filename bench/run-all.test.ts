import { describe, expect, it } from "vitest";
import type { Baseline } from "./baseline.ts";
import { selectBenches } from "./run-all.ts";

const baseline: Baseline = {
  size: "smoke",
  note: "",
  benches: { formula: { "compiled/naive": { value: 18, unit: "x", better: "higher" } } },
};

describe("which benches CI runs (BENCH_ONLY_GUARDING=1)", () => {
  it("runs those with a baseline ratio or a correctness check, and says why", () => {
    const selection = selectBenches(["formula", "ledger", "voice-wer"], baseline, true);
    expect(selection).toEqual([
      { bench: "formula", run: true, why: "baseline ratio: compiled/naive" },
      {
        bench: "ledger",
        run: true,
        why: "correctness: no overdraft, no lost or doubled posting, no request failed otherwise",
      },
      { bench: "voice-wer", run: false, why: "guards nothing (no baseline ratio, no correctness check)" },
    ]);
  });

  it("runs every bench without it", () => {
    const selection = selectBenches(["formula", "voice-wer"], baseline, false);
    expect(selection.map((s) => s.run)).toEqual([true, true]);
  });
});
