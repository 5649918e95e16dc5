import { defineProject } from "vitest/config";
import { timeLimits } from "../../vitest.time-limits.ts";
import { serverProjectFiles } from "./test/test-lanes.ts";

/**
 * One of the server's two test projects (which file goes where: test/test-lanes.ts); under
 * SERVER_LANE=postgres (npm run test:postgres) only the files that open a database, on DATABASE_URL.
 * - `server`: everything but the real-time tests, as many files at once as the run allows;
 * - `server-realtime` (vitest.realtime.config.ts): calls on the clock and servers killed mid-work, one file at
 *   a time after every other project has finished, so what they measure is the code and not the load of
 *   the tests beside them.
 */
export function serverProject(realTime: boolean) {
  return defineProject({
    test: {
      name: realTime ? "server-realtime" : "server",
      include: serverProjectFiles(import.meta.dirname, realTime),
      environment: "node",
      globalSetup: ["./test/global-setup.ts"],
      ...timeLimits(20_000, 30_000),
      // Files of the `server` project share their worker's modules (no re-import per file: importing the
      // app took more CPU than most files' tests). Each file builds its own app and database, and no server
      // test mocks a module. The real-time files keep a fresh module graph each (sandbox callees and
      // simulated lines are module state).
      ...(realTime ? { maxWorkers: 1, sequence: { groupOrder: 1 } } : { isolate: false }),
    },
  });
}

export default serverProject(false);
