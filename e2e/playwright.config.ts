import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);

/** Flags this machine's Chromium needs: no sandbox as root, and no background calls to a closed network. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // On CI the journeys share two cores with the unit suites: a page that shows in a second alone can take
  // ten there. One retry, reported as flaky; the time limits are a safety net, three times the quiet ones.
  retries: process.env.CI ? 1 : 0,
  timeout: process.env.CI ? 90_000 : 30_000,
  expect: { timeout: process.env.CI ? 15_000 : 5_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  outputDir: "../.tmp/e2e-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A trace records the screen throughout (a sixth of the suite's CPU): on CI only for the retry.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: "node scripts/e2e-server.mjs",
    cwd: "..",
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    // The server migrates a fresh database and seeds the demo before it answers: slow on a busy machine.
    timeout: 180_000,
    env: { E2E_PORT: String(port) },
    stdout: "pipe",
    stderr: "pipe",
  },
});
