// Initial JavaScript of the /app shell, gzip: what the browser must fetch before the shell can render.
// It is the entry script plus every module it preloads, as the built index.html lists them; every
// overlay and feature page is a lazy chunk and is not counted. Target: at most 200 KB gzip.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const TARGET_KB = 200;
const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "apps/web/dist");
const indexFile = path.join(dist, "index.html");

if (!existsSync(indexFile)) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}

const html = readFileSync(indexFile, "utf8");
const initial = new Set<string>();
for (const match of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g))
  initial.add(match[1] as string);
for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
  initial.add(match[1] as string);
const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1] as string);

const gzipKb = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;
let jsTotal = 0;
for (const file of initial) {
  const kb = gzipKb(file);
  jsTotal += kb;
  console.log(`  ${file.padEnd(48)} ${kb.toFixed(1).padStart(7)} KB gzip`);
}
const cssTotal = css.reduce((sum, file) => sum + gzipKb(file), 0);
const allChunks = readdirSync(path.join(dist, "assets")).filter((file) => file.endsWith(".js")).length;

console.log(
  `initial JS (gzip): ${jsTotal.toFixed(1)} KB in ${initial.size} file(s); target <= ${TARGET_KB} KB`,
);
console.log(`initial CSS (gzip): ${cssTotal.toFixed(1)} KB`);
console.log(`JS chunks in the build: ${allChunks}, of which ${allChunks - initial.size} load on demand`);
console.log(`ratio to target: ${(jsTotal / TARGET_KB).toFixed(2)}`);
if (jsTotal > TARGET_KB) {
  console.error(`initial JS ${jsTotal.toFixed(1)} KB is over the ${TARGET_KB} KB target`);
  process.exit(1);
}
