#!/usr/bin/env node
// `npm start`: builds the web app when its sources are newer than the last build, then runs the server
// on the embedded database (or DATABASE_URL when set).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stamp = path.join(root, "apps/web/dist/index.html");
const sources = [
  "apps/web/src",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "packages/core/src",
  "packages/api/src",
];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changedAt = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
if (changedAt > builtAt) {
  console.log(builtAt ? "Web app sources changed: rebuilding..." : "Building the web app (first start)...");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Voice calls need Debian's speech tools: installed here when missing (as root), like the tests do. Without
// them the product still starts; calls then say which tool is missing.
const voiceTools = spawnSync(process.execPath, [path.join(root, "scripts/ensure-voice-tools.mjs")], {
  cwd: root,
  stdio: "inherit",
});
if (voiceTools.status !== 0) console.log("Starting without voice calls (see the line above).");

const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/server.ts"], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
