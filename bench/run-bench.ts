// Runs one `*.bench.ts` in a process of its own, passing its output through as it comes and gathering the
// figures it reports (bench/report.ts).
import { spawn } from "node:child_process";
import path from "node:path";
import { type Figure, parseFigureLine } from "./report.ts";

export interface BenchRun {
  bench: string;
  /** The exit code; null when a signal ended it. */
  status: number | null;
  figures: Figure[];
  seconds: number;
}

/** `formula.bench.ts` -> `formula`. */
export function benchName(file: string): string {
  return path.basename(file).replace(/\.bench\.ts$/, "");
}

/** The figures among a bench's output lines. */
export function figuresIn(output: string): Figure[] {
  return output.split(/\r?\n/).flatMap((line) => parseFigureLine(line) ?? []);
}

export function runBench(
  file: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): Promise<BenchRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], {
      cwd: options.cwd ?? path.dirname(file),
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", options.quiet ? "pipe" : "inherit"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.quiet) process.stdout.write(chunk);
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let finished = false;
    const done = (status: number | null) => {
      if (finished) return;
      finished = true;
      // Quiet runs still show why they failed.
      if (options.quiet && status !== 0) process.stderr.write(stderr.slice(-4000));
      resolve({
        bench: benchName(file),
        status,
        figures: figuresIn(output),
        seconds: (performance.now() - started) / 1000,
      });
    };
    child.once("error", (error) => {
      stderr += String(error);
      done(null);
    });
    child.once("close", (code) => done(code));
  });
}
