// Runs the `*.bench.ts` beside this file, one after another, each in its own process, and gathers the figures
// each prints as `BENCH {...}` lines (bench/report.ts).
//   node --import tsx run-all.ts [name ...]   only the benches whose file name contains one of the names
//   BENCH_SIZE=smoke            each bench small (CI); without it they run at full size
//   BENCH_ONLY_GUARDING=1       only the benches that guard something (the rule: `guardsOf` below; CI)
//   BENCH_GUARD=1               fail when a ratio of baseline.json fell by more than a third (CI); absolute
//                               figures are reported, never gated
//   --write-baseline [--runs=N] run N times (default 1) and write the worst value of each stable ratio to
//                               baseline.json (`npm run bench:baseline`: smoke size, 3 runs)
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Baseline,
  baselineFromRuns,
  describeVerdict,
  guard,
  guardedRatios,
  readBaseline,
  writeBaseline,
} from "./baseline.ts";
import type { Figure } from "./report.ts";
import { benchName, runBench } from "./run-bench.ts";

/** Benches that fail on a correctness check, whatever the machine's speed: they guard that check. */
export const CORRECTNESS_CHECKS: Record<string, string> = {
  "route-fuzz": "correctness: no 5xx answer and no request left unanswered",
  ledger: "correctness: no overdraft, no lost or doubled posting, no request failed otherwise",
  "web-bundle-size": "budget: first-load JavaScript within 150 KB gzip",
};

/**
 * The one rule for what CI runs: a bench guards something if baseline.json holds a ratio of it, or it fails
 * on a correctness check. The answer lists what it guards (empty: nothing).
 */
export function guardsOf(bench: string, baseline: Baseline): string[] {
  const reasons: string[] = [];
  const ratios = guardedRatios(baseline, bench);
  if (ratios.length > 0) reasons.push(`baseline ratio: ${ratios.join(", ")}`);
  const check = CORRECTNESS_CHECKS[bench];
  if (check) reasons.push(check);
  return reasons;
}

export interface Selected {
  bench: string;
  run: boolean;
  why: string;
}

export function selectBenches(benches: string[], baseline: Baseline, onlyGuarding: boolean): Selected[] {
  return benches.map((bench) => {
    const reasons = guardsOf(bench, baseline);
    if (reasons.length > 0) return { bench, run: true, why: reasons.join("; ") };
    return onlyGuarding
      ? { bench, run: false, why: "guards nothing (no baseline ratio, no correctness check)" }
      : { bench, run: true, why: "guards nothing; runs for its figures" };
  });
}

async function main(): Promise<void> {
  const dir = import.meta.dirname;
  const args = process.argv.slice(2);
  const writing = args.includes("--write-baseline");
  const runs = Math.max(1, Number(args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 1) || 1);
  const names = args.filter((a) => !a.startsWith("--"));
  const size = process.env.BENCH_SIZE === "smoke" ? "smoke" : "full";
  const guarding = process.env.BENCH_GUARD === "1";
  const onlyGuarding = process.env.BENCH_ONLY_GUARDING === "1";
  const baseline = readBaseline();

  if ((guarding || writing) && size !== baseline.size) {
    console.error(
      `baseline.json holds ${baseline.size}-size figures: ${writing ? "--write-baseline" : "BENCH_GUARD=1"} needs BENCH_SIZE=${baseline.size}`,
    );
    process.exit(1);
  }

  const files = readdirSync(dir)
    .filter((file) => file.endsWith(".bench.ts"))
    .filter((file) => names.length === 0 || names.some((name) => file.includes(name)))
    .sort();
  let benches = files.map(benchName);
  // Rewriting the baseline with no names: the benches it already holds.
  if (writing && names.length === 0) benches = benches.filter((b) => guardedRatios(baseline, b).length > 0);
  if (benches.length === 0) {
    console.error(
      writing
        ? "no bench to take a baseline of: name them (npm run bench:baseline -- formula)"
        : "no bench matches",
    );
    process.exit(1);
  }

  const selection = selectBenches(benches, baseline, onlyGuarding && !writing);
  console.log(
    onlyGuarding && !writing
      ? "selection (BENCH_ONLY_GUARDING=1: the benches that guard something):"
      : "selection:",
  );
  const width = Math.max(...benches.map((b) => b.length));
  for (const { bench, run, why } of selection)
    console.log(`  ${run ? "run " : "skip"}  ${bench.padEnd(width)}  ${why}`);

  const selected = selection.filter((s) => s.run).map((s) => s.bench);
  const failed: string[] = [];
  const figuresByRun: Figure[][] = [];
  for (let round = 1; round <= runs; round++) {
    const figures: Figure[] = [];
    for (const bench of selected) {
      const label = `${bench}.bench.ts${size === "smoke" ? " (size: smoke)" : ""}${runs > 1 ? `, run ${round} of ${runs}` : ""}`;
      console.log(`\n== ${label}`);
      const result = await runBench(path.join(dir, `${bench}.bench.ts`));
      figures.push(...result.figures);
      if (result.status !== 0) {
        failed.push(`${bench} (exit ${result.status})`);
        console.error(`${bench}.bench.ts failed (exit ${result.status})`);
      }
    }
    figuresByRun.push(figures);
  }

  if (writing) {
    if (failed.length > 0) {
      console.error(`\nbaseline.json not written: ${failed.join(", ")} failed`);
      process.exit(1);
    }
    const next = baselineFromRuns(
      baseline,
      figuresByRun,
      selected,
      size,
      `Stable ratios at ${size} size, the worst of ${runs} run(s) on ${new Date().toISOString().slice(0, 10)}; written by npm run bench:baseline.`,
    );
    writeBaseline(next);
    console.log("\nbaseline.json written:");
    for (const bench of selected)
      for (const [name, entry] of Object.entries(next.benches[bench] ?? {}))
        console.log(`  ${bench} ${name}: ${entry.value} ${entry.unit} (${entry.better} is better)`);
    return;
  }

  // The guard compares like with like: figures of the baseline's size only.
  const verdicts = size === baseline.size ? guard(baseline, figuresByRun.flat(), selected) : [];
  if (verdicts.length > 0) {
    console.log(
      `\nguarded ratios against baseline.json${guarding ? "" : " (BENCH_GUARD is not 1: reported, not enforced)"}:`,
    );
    for (const verdict of verdicts)
      console.log(`  ${verdict.failed ? "FAIL" : "ok  "}  ${describeVerdict(verdict)}`);
  }
  const regressions = verdicts.filter((v) => v.failed);
  if (guarding && regressions.length > 0) {
    console.error(`\nbenchmark guard: ${regressions.length} ratio(s) fell by more than a third:`);
    for (const verdict of regressions) console.error(`  ${describeVerdict(verdict)}`);
  }
  if (failed.length > 0) console.error(`\nfailed: ${failed.join(", ")}`);
  if (failed.length > 0 || (guarding && regressions.length > 0)) process.exit(1);
}

if (path.resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) await main();
