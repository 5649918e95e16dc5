// Runs named lanes of shell commands side by side. Each lane's steps run one after another; a lane stops at
// its first failing step unless it keeps going. A lane's output goes to .tmp/lanes/<lane>.log and is printed whole when the lane
// ends, so parallel output never interleaves. Prints each lane's time and exits non-zero if any lane failed.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const logDir = path.join(root, ".tmp", "lanes");

/**
 * @typedef {{ name: string, steps: string[], env?: Record<string, string>, startAfterMs?: number,
 *   keepGoing?: boolean }} Lane keepGoing: the later steps run even when one fails (the lane still fails)
 */

function runStep(command, env, log) {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: root, shell: true, env: { ...process.env, ...env } });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on("error", (error) => {
      log.write(`\n${error.message}\n`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/** @param {Lane} lane */
async function runLane(lane) {
  if (lane.startAfterMs) await new Promise((resolve) => setTimeout(resolve, lane.startAfterMs));
  const file = path.join(logDir, `${lane.name}.log`);
  const log = createWriteStream(file);
  const started = Date.now();
  console.log(`[${lane.name}] started: ${lane.steps.join(" && ")}`);
  let code = 0;
  for (const step of lane.steps) {
    log.write(`\n$ ${step}\n`);
    const stepStarted = Date.now();
    const stepCode = await runStep(step, lane.env, log);
    log.write(`\n[${lane.name}] ${step}: exit ${stepCode} after ${seconds(Date.now() - stepStarted)}\n`);
    if (code === 0) code = stepCode;
    if (code !== 0 && !lane.keepGoing) break;
  }
  await new Promise((resolve) => log.end(resolve));
  const took = Date.now() - started;
  console.log(
    `\n===== [${lane.name}] ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds(took)} =====`,
  );
  process.stdout.write(readFileSync(file, "utf8"));
  console.log(`===== [${lane.name}] end =====\n`);
  return { name: lane.name, code, took, file };
}

const FAILURE_LINE = /✘|\bFAIL\b|FAILED|×|Error:|AssertionError|Timed? ?out|\d+ failed|exit [1-9]/;

/** A failed lane's failing lines, so the end of the output says why even when it is cut from the top. */
function failureDigest(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const seen = new Set();
  const hits = [];
  for (const line of lines) {
    const text = stripVTControlCharacters(line).trimEnd();
    if (!FAILURE_LINE.test(text) || seen.has(text)) continue;
    seen.add(text);
    hits.push(text.length > 300 ? `${text.slice(0, 300)}…` : text);
  }
  return hits.slice(0, 60);
}

/**
 * @param {Lane[]} lanes
 * @param {{ oneAfterAnother?: boolean }} [options] one lane at a time (each still runs when one before failed)
 */
export async function runLanes(lanes, options = {}) {
  mkdirSync(logDir, { recursive: true });
  const started = Date.now();
  const results = [];
  if (options.oneAfterAnother) for (const lane of lanes) results.push(await runLane(lane));
  else results.push(...(await Promise.all(lanes.map(runLane))));
  console.log(`Lanes (wall ${seconds(Date.now() - started)}):`);
  for (const r of results)
    console.log(`  ${r.name.padEnd(12)} ${r.code === 0 ? "passed" : "FAILED"}  ${seconds(r.took)}`);
  const failed = results.filter((r) => r.code !== 0);
  if (failed.length > 0) {
    for (const r of failed) {
      console.log(`--- why [${r.name}] failed (its failing lines; the whole log is above) ---`);
      for (const line of failureDigest(r.file)) console.log(`  ${line}`);
    }
    console.log(`Failed: ${failed.map((r) => r.name).join(", ")}`);
    process.exitCode = 1;
  }
}
