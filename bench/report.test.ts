import { describe, expect, it } from "vitest";
import { figureLine, parseFigureLine } from "./report.ts";
import { figuresIn } from "./run-bench.ts";

describe("figure lines", () => {
  it("carry name, value, unit, target and the ratio to it, and read back", () => {
    const line = figureLine({
      bench: "formula",
      name: "compiled rate",
      value: 10_000_000,
      unit: "row-evaluations/s",
      target: 5_000_000,
      better: "higher",
    });
    expect(line.startsWith("BENCH {")).toBe(true);
    expect(parseFigureLine(line)).toEqual({
      bench: "formula",
      name: "compiled rate",
      value: 10_000_000,
      unit: "row-evaluations/s",
      target: 5_000_000,
      better: "higher",
      ratioToTarget: 2,
      meets: true,
      stable: false,
    });
  });

  it("say a lower-is-better figure over its target misses it", () => {
    const line = figureLine({
      bench: "logs",
      name: "page p95",
      value: 45,
      unit: "ms",
      target: 30,
      better: "lower",
    });
    expect(parseFigureLine(line)).toMatchObject({ ratioToTarget: 1.5, meets: false });
  });

  it("say whether a target of 0 is met, with no ratio to it", () => {
    const line = figureLine({
      bench: "route-fuzz",
      name: "5xx answers",
      value: 0,
      unit: "requests",
      target: 0,
      better: "lower",
    });
    expect(parseFigureLine(line)).toMatchObject({ ratioToTarget: null, meets: true });
  });

  it("are picked out of a bench's other output", () => {
    const output = [
      "compiled: 26,501,722 row-evaluations/s",
      figureLine({
        bench: "formula",
        name: "compiled/naive",
        value: 19,
        unit: "x",
        better: "higher",
        stable: true,
      }),
      "BENCH not json",
      "",
    ].join("\n");
    expect(figuresIn(output).map((f) => [f.name, f.value, f.stable])).toEqual([["compiled/naive", 19, true]]);
  });
});
