import { defineProject } from "vitest/config";
import { timeLimits } from "../../vitest.time-limits.ts";
import { serverProjectFiles } from "./test/test-lanes.ts";

/**
 * One of the server's two test projects (which file goes where: test/test-lanes.ts); under
 * SERVER_LANE=postgres (npm run test:postgres) only the files that open a database, on DATABASE_URL.
 * - `server`: everything but the real-time tests, as many files at once as the run allows;
 * - `server-realtime` (vitest.realtime.config.ts): calls on the clock and servers killed mid-work, two files at
 *   a time after every other project of the run has finished, so what they measure is the code and not the
 *   load of the tests beside them.
 */
export function serverProject(realTime: boolean) {
  return defineProject({
    test: {
      name: realTime ? "server-realtime" : "server",
      include: serverProjectFiles(import.meta.dirname, realTime),
      environment: "node",
      globalSetup: ["./test/global-setup.ts"],
      ...timeLimits(20_000, 30_000),
      // Files share their worker's modules (no re-import per file: importing the app took more CPU than most
      // files' tests, and a fifth of the real-time project's wall time). Each file builds its own app and
      // database, no server test mocks a module, and the sandbox's simulated callees are set per number by
      // the file that calls them.
      isolate: false,
      // Two real-time files at once (one under VITEST_WORKERS=1): they wait on the clock more than they
      // compute (about 0.65 of a core on average, their speech children included), and one at a time left a
      // core idle for the quarter hour they take once the other lanes are done.
      ...(realTime
        ? { maxWorkers: Math.min(2, Number(process.env.VITEST_WORKERS) || 2), sequence: { groupOrder: 1 } }
        : {}),
    },
  });
}

export default serverProject(false);
