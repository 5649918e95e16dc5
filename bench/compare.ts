// Runs one benchmark on two revisions in the same run, so a change can be checked before it lands:
//   npm run bench:compare -- <bench> [revA] [revB] [--rounds=N] [--verbose]
// revA defaults to `main`, revB to the working tree (name it `.` to be explicit). A revision other than the
// working tree is checked out with `git worktree add` into .tmp/bench-compare/ (removed afterwards;
// BENCH_COMPARE_KEEP=1 keeps it) and given this checkout's installed packages through symlinks (no
// `npm ci`), its own workspace packages excepted. The bench then runs A, B, A, B, ... (N rounds, default 2) so
// the machine's load falls on both alike, at the size BENCH_SIZE says. Prints, for each ratio baseline.json
// guards (else each stable ratio), its value on both and B/A; then the other figures. Exits 1 when a run
// fails or a guarded ratio of B is more than a third worse than A's.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { fallFrom, MAX_FALL, readBaseline } from "./baseline.ts";
import type { Figure } from "./report.ts";
import { runBench } from "./run-bench.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORKING_TREE = ".";

const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();

interface Tree {
  label: string;
  dir: string;
  cleanup: () => void;
}

/**
 * This checkout's node_modules for another tree: every installed package a symlink to ours, except the
 * workspace packages (@switchboard/*), which must be the other tree's own code.
 */
function linkPackages(dir: string): void {
  const ours = path.join(ROOT, "node_modules");
  const theirs = path.join(dir, "node_modules");
  mkdirSync(theirs, { recursive: true });
  for (const entry of readdirSync(ours)) {
    const target = path.join(theirs, entry);
    if (existsSync(target)) continue;
    if (entry === "@switchboard") {
      mkdirSync(target);
      // Their links are relative (../../packages/core): recreated inside the other tree they point at its code.
      for (const name of readdirSync(path.join(ours, entry)))
        symlinkSync(readlinkSync(path.join(ours, entry, name)), path.join(target, name));
    } else symlinkSync(path.join(ours, entry), target);
  }
  // Workspaces' own node_modules (packages npm could not hoist).
  const workspaces = JSON.parse(git("show", "HEAD:package.json")).workspaces as string[];
  for (const workspace of workspaces) {
    const source = path.join(ROOT, workspace, "node_modules");
    const target = path.join(dir, workspace, "node_modules");
    if (existsSync(source) && existsSync(path.join(dir, workspace)) && !existsSync(target))
      symlinkSync(source, target);
  }
}

function openTree(rev: string): Tree {
  if (rev === WORKING_TREE) return { label: "working tree", dir: ROOT, cleanup: () => {} };
  const sha = git("rev-parse", "--verify", `${rev}^{commit}`);
  const label = `${rev} (${sha.slice(0, 10)})`;
  const dir = path.join(ROOT, ".tmp", "bench-compare", sha.slice(0, 12));
  if (!existsSync(dir)) {
    mkdirSync(path.dirname(dir), { recursive: true });
    git("worktree", "add", "--detach", dir, sha);
  }
  linkPackages(dir);
  return {
    label,
    dir,
    cleanup: () => {
      if (process.env.BENCH_COMPARE_KEEP === "1") return;
      try {
        git("worktree", "remove", "--force", dir);
      } catch {
        rmSync(dir, { recursive: true, force: true });
        git("worktree", "prune");
      }
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const show = (value: number | undefined) =>
  value === undefined ? "—" : value.toLocaleString("en-US", { maximumSignificantDigits: 4 });

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const positional = args.filter((a) => !a.startsWith("--"));
  const rounds = Math.max(1, Number(args.find((a) => a.startsWith("--rounds="))?.slice(9)) || 2);
  const verbose = args.includes("--verbose");
  const [bench, revA = "main", revB = WORKING_TREE] = positional;
  if (!bench) {
    console.error(
      "usage: npm run bench:compare -- <bench> [revA (main)] [revB (. = working tree)] [--rounds=N]",
    );
    return 2;
  }
  const file = `${bench.replace(/\.bench\.ts$/, "")}.bench.ts`;
  const name = file.replace(/\.bench\.ts$/, "");
  const trees: Tree[] = [];
  try {
    for (const rev of [revA, revB]) trees.push(openTree(rev));
    for (const tree of trees)
      if (!existsSync(path.join(tree.dir, "bench", file)))
        throw new Error(`${tree.label} has no bench/${file}`);
    const [a, b] = trees as [Tree, Tree];
    console.log(
      `${file}, size ${process.env.BENCH_SIZE ?? "full"}: A = ${a.label}, B = ${b.label}, ${rounds} round(s) of A then B`,
    );

    const figures: [Figure[][], Figure[][]] = [[], []];
    let failed = false;
    for (let round = 1; round <= rounds; round++) {
      for (const [side, tree] of [a, b].entries()) {
        const which = side === 0 ? "A" : "B";
        if (verbose) console.log(`\n== ${which}: ${tree.label}, round ${round}`);
        const run = await runBench(path.join(tree.dir, "bench", file), { quiet: !verbose });
        figures[side as 0 | 1].push(run.figures);
        console.log(
          `${which} round ${round}: exit ${run.status}, ${run.seconds.toFixed(0)} s, ${run.figures.length} figure(s)`,
        );
        if (run.status !== 0) failed = true;
      }
    }

    const values = (side: 0 | 1, figureName: string) =>
      figures[side].flatMap((run) => run.filter((f) => f.name === figureName).map((f) => f.value));
    const all = [...figures[0].flat(), ...figures[1].flat()];
    const guarded = Object.keys(readBaseline().benches[name] ?? {});
    const ratios =
      guarded.length > 0 ? guarded : [...new Set(all.filter((f) => f.stable).map((f) => f.name))];
    const others = [...new Set(all.map((f) => f.name))].filter((n) => !ratios.includes(n));
    let regressed = false;
    const table = (title: string, names: string[], judge: boolean) => {
      if (names.length === 0) return;
      console.log(`\n${title} (median of the rounds; each round in brackets):`);
      for (const figureName of names) {
        const figure = all.find((f) => f.name === figureName);
        const [va, vb] = [values(0, figureName), values(1, figureName)];
        const [ma, mb] = [va.length ? median(va) : undefined, vb.length ? median(vb) : undefined];
        let verdict = "";
        if (ma !== undefined && mb !== undefined && figure) {
          const fall = fallFrom(ma, mb, figure.better);
          verdict = `B/A ${show(mb / ma)} (${figure.better} is better: B ${fall > 0 ? `${(fall * 100).toFixed(0)}% worse` : `${(-fall * 100).toFixed(0)}% better or level`})`;
          if (judge && fall > MAX_FALL) {
            regressed = true;
            verdict += ", more than a third worse";
          }
        } else verdict = "not reported by both";
        console.log(
          `  ${figureName} [${figure?.unit ?? "?"}]: A ${show(ma)} [${va.map(show).join(", ")}], B ${show(mb)} [${vb.map(show).join(", ")}]; ${verdict}`,
        );
      }
    };
    table(guarded.length > 0 ? "guarded ratios (baseline.json)" : "stable ratios", ratios, true);
    table("other figures (reported, not judged)", others, false);
    return failed || regressed ? 1 : 0;
  } finally {
    for (const tree of trees) tree.cleanup();
  }
}

process.exitCode = await main();
