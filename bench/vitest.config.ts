import { defineProject } from "vitest/config";
import { timeLimits } from "../vitest.time-limits.ts";

// The benchmarks' own machinery (report lines, baseline guard, selection); the benches themselves run
// through `npm run bench`, not here.
export default defineProject({
  test: { name: "bench", include: ["*.test.ts"], environment: "node", ...timeLimits() },
});
