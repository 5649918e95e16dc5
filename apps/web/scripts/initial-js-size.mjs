#!/usr/bin/env node
// Gzip size of the JavaScript the /app shell loads before anything lazy: the entry chunk of dist/index.html
// and every chunk it imports statically (followed recursively; dynamic import() chunks are not counted).
// Usage: node apps/web/scripts/initial-js-size.mjs [--budget-kb 200]   (run after `npm run build -w @switchboard/web`)
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const dist = resolve(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const budgetFlag = process.argv.indexOf("--budget-kb");
const budgetKb = budgetFlag > 0 ? Number(process.argv[budgetFlag + 1]) : 200;

const html = readFileSync(join(dist, "index.html"), "utf8");
const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+)"/g)].map((m) => m[1]);
if (entries.length === 0) throw new Error("No module script in dist/index.html; build first.");

const seen = new Set();
const queue = [...entries];
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(join(dist, file), "utf8");
  // Static imports only: `import ... from "./x.js"` and `import "./x.js"` (not `import("./x.js")`).
  for (const match of code.matchAll(/\bimport\s*(?:[\w${},*\s]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    queue.push(join(dirname(file), match[1]).replaceAll("\\", "/"));
  }
}

let total = 0;
const rows = [...seen].map((file) => {
  const gzip = gzipSync(readFileSync(join(dist, file))).length;
  total += gzip;
  return { file, gzipKb: (gzip / 1000).toFixed(2) };
});
console.table(rows);
const totalKb = total / 1000;
console.log(`Initial JS of the /app shell: ${totalKb.toFixed(2)} kB gzip (budget ${budgetKb} kB).`);
if (totalKb > budgetKb) {
  console.error(`Over budget by ${(totalKb - budgetKb).toFixed(2)} kB.`);
  process.exit(1);
}
