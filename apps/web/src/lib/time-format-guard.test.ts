import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Issue 32 item 10: one rule for every date and time the app shows (the account's zone, lib/time-format.ts).
// A file that formats a date itself would bring back the browser's zone; this keeps the rule one.
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const THE_MODULE = path.join("lib", "time-format.ts");

const DATE_FORMATTING = [
  /Intl\.DateTimeFormat/,
  /\.toLocaleDateString\(/,
  /\.toLocaleTimeString\(/,
  /Date\([^)]*\)\.toLocaleString\(/,
  /\.toUTCString\(|\.toDateString\(|\.toTimeString\(/,
  /\b(dateStyle|timeStyle|timeZoneName)\s*:/,
  /from "(dayjs|date-fns|moment|luxon)/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The lines of the web app, outside the time module, that format a date or time themselves. */
export function datesFormattedOutsideTheModule(root = SRC): string[] {
  return sourceFiles(root)
    .filter((file) => path.relative(root, file) !== THE_MODULE)
    .flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => DATE_FORMATTING.some((pattern) => pattern.test(line)))
        .map(({ line, index }) => `${path.relative(root, file)}:${index + 1}: ${line.trim()}`),
    );
}

describe("dates and times are formatted in one place", () => {
  it("no file of the web app formats a date or time outside lib/time-format.ts", () => {
    expect(datesFormattedOutsideTheModule()).toEqual([]);
  });
});
