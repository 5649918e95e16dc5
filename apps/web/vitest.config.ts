import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type ConfigEnv, defineProject, mergeConfig } from "vitest/config";
import { timeLimits } from "../../vitest.time-limits.ts";
import viteConfig from "./vite.config.ts";

const MOCKS_A_MODULE = /\bvi\.mock\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return /\.test\.tsx?$/.test(entry.name) ? [path.relative(import.meta.dirname, full)] : [];
  });
}

/**
 * The web app's tests, in two projects by one rule: a file that mocks a module (`vi.mock`) gets a fresh
 * module graph (`web-isolated`); the rest share their worker's modules (`web`), which saves re-importing
 * React, Mantine and the app for each file (three quarters of the project's CPU time).
 */
export function webProject(mocking: boolean) {
  const files = ["src", "build"]
    .flatMap((dir) => testFiles(path.join(import.meta.dirname, dir)))
    .filter(
      (file) => MOCKS_A_MODULE.test(readFileSync(path.join(import.meta.dirname, file), "utf8")) === mocking,
    )
    .sort();
  return async (env: ConfigEnv) =>
    mergeConfig(
      await viteConfig(env),
      defineProject({
        test: {
          name: mocking ? "web-isolated" : "web",
          environment: "jsdom",
          include: files,
          setupFiles: ["src/test/setup.ts"],
          isolate: mocking,
          // Route tests import the lazy shell and a product area on first render: slow on a busy machine.
          ...timeLimits(15_000),
        },
      }),
    );
}

export default webProject(false);
