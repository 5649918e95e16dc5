// JavaScript of the first load, gzip (issue #23): what the browser actually fetches before a signed-out
// visit to /app shows the sign-in page. The production build is served by the real server on a loopback
// port (bench/web-server.ts); Debian's Chromium (Playwright) opens /app with empty storage, is sent to
// /signin and the page is counted once its "E-mail address" field shows. Every JavaScript response up to
// then is counted at its gzip size (level 9, as scripts/compress-dist.mjs stores it beside the file: the
// browser is served .br when it may, so gzip is the comparable figure). Target: at most 150 KB gzip.
// It also prints the static figure it used to report (entry script plus the modules index.html preloads).
// BENCH_SIZE=smoke changes nothing: one page load is already small. BENCH_BUILD=1 rebuilds first.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { reportFigure } from "./report.ts";
import { CHROMIUM, CHROMIUM_FLAGS, DIST, ensureBuild, startWebServer } from "./web-server.ts";

const TARGET_KB = 150;

function gzipKb(file: string): number {
  const precompressed = `${file}.gz`;
  const bytes = existsSync(precompressed)
    ? readFileSync(precompressed).length
    : gzipSync(readFileSync(file), { level: 9 }).length;
  return bytes / 1024;
}

ensureBuild();

// The static figure: entry plus modulepreload links of the built index.html.
const html = readFileSync(path.join(DIST, "index.html"), "utf8");
const declared = new Set<string>();
for (const match of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g))
  declared.add(match[1] as string);
for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
  declared.add(match[1] as string);
const declaredKb = [...declared].reduce((sum, file) => sum + gzipKb(path.join(DIST, file)), 0);

const server = await startWebServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
let loadedKb = 0;
let transferredKb = 0;
const loaded: { file: string; kb: number }[] = [];
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const scripts = new Map<string, string>();
  const encoded = new Map<string, number>();
  cdp.on("Network.responseReceived", (event) => {
    if (event.type === "Script") scripts.set(event.requestId, event.response.url);
  });
  cdp.on("Network.loadingFinished", (event) => encoded.set(event.requestId, event.encodedDataLength));
  await page.goto(`${server.origin}/app`);
  await page.getByLabel("E-mail address").waitFor({ state: "visible", timeout: 30_000 });
  if (!new URL(page.url()).pathname.startsWith("/signin")) throw new Error(`ended on ${page.url()}`);
  for (const [requestId, url] of scripts) {
    const file = new URL(url).pathname;
    const kb = gzipKb(path.join(DIST, file));
    loaded.push({ file, kb });
    loadedKb += kb;
    transferredKb += (encoded.get(requestId) ?? 0) / 1024;
  }
} finally {
  await browser.close();
  await server.stop();
}

for (const { file, kb } of loaded.sort((a, b) => b.kb - a.kb))
  console.log(`  ${file.padEnd(48)} ${kb.toFixed(1).padStart(7)} KB gzip`);
console.log(
  `first load, signed-out /app -> sign-in page: ${loadedKb.toFixed(1)} KB JS gzip in ${loaded.length} file(s) (${transferredKb.toFixed(1)} KB on the wire); target <= ${TARGET_KB} KB`,
);
console.log(
  `entry + preloads of index.html (static): ${declaredKb.toFixed(1)} KB gzip in ${declared.size} file(s)`,
);
console.log(`ratio to target: ${(loadedKb / TARGET_KB).toFixed(2)}`);
reportFigure({
  bench: "web-bundle-size",
  name: "first-load JS",
  value: loadedKb,
  unit: "KB gzip",
  target: TARGET_KB,
  better: "lower",
});
reportFigure({
  bench: "web-bundle-size",
  name: "entry + preloads",
  value: declaredKb,
  unit: "KB gzip",
  better: "lower",
});
if (loaded.length === 0) {
  console.error("no JavaScript was counted");
  process.exit(1);
}
if (loadedKb > TARGET_KB) {
  console.error(`first-load JS ${loadedKb.toFixed(1)} KB is over the ${TARGET_KB} KB target`);
  process.exit(1);
}
