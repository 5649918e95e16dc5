// Runs every `*.bench.ts` beside this file, one after another, each in its own process.
// BENCH_SIZE=smoke makes each one small (CI); without it they run at full size.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const dir = import.meta.dirname;
const only = process.argv[2];
const benches = readdirSync(dir)
  .filter((file) => file.endsWith(".bench.ts") && (!only || file.includes(only)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n== ${file}${process.env.BENCH_SIZE ? ` (size: ${process.env.BENCH_SIZE})` : ""}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, file)], { stdio: "inherit" });
  if (result.status !== 0) {
    failed++;
    console.error(`${file} failed (exit ${result.status})`);
  }
}
if (failed) process.exit(1);
