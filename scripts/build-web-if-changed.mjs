#!/usr/bin/env node
// Builds the web app when its sources are newer than the last build (npm start, the e2e lane, CI): one build
// per change, however many steps need the built app.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stamp = path.join(root, "apps/web/dist/index.html");
const sources = [
  "apps/web/src",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "apps/web/vite.public.config.ts",
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
  console.log(builtAt ? "Web app sources changed: rebuilding..." : "Building the web app...");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  process.exit(build.status ?? 1);
}
console.log("The web app's build is up to date.");
