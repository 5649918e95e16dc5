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
  // One retry on CI only, where four lanes share two cores; a retried test is reported as flaky.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  outputDir: "../.tmp/e2e-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
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
