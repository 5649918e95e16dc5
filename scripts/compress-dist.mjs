#!/usr/bin/env node
// Writes .gz and .br beside each text asset of a build so the server sends them precompressed.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: compress-dist.mjs <dist dir>");
  process.exit(1);
}
const compressible = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

function walk(folder) {
  for (const entry of readdirSync(folder)) {
    const file = path.join(folder, entry);
    if (statSync(file).isDirectory()) walk(file);
    else if (compressible.test(file) && statSync(file).size > 1024) {
      const content = readFileSync(file);
      writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      writeFileSync(
        `${file}.br`,
        brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  }
}
walk(path.resolve(dir));
