import os from "node:os";
import { defineConfig } from "vitest/config";

// Files run as many at once as there are cores (VITEST_WORKERS to change it): most wait on sockets, timers
// and a database more than they compute, but CI runs this beside the browser journeys and the PostgreSQL
// lane on the same cores, and more starves them all. The server's real-time files run one at a time after
// everything else (apps/server/vitest.realtime.config.ts).
const workers = Number(process.env.VITEST_WORKERS) || Math.max(1, Math.min(4, os.availableParallelism()));

export default defineConfig({
  test: {
    maxWorkers: workers,
    projects: [
      "packages/core",
      "packages/api",
      "apps/server/vitest.config.ts",
      "apps/server/vitest.realtime.config.ts",
      "apps/web/vitest.config.ts",
      "apps/web/vitest.isolated.config.ts",
      "bench",
    ],
  },
});
