import { defineProject } from "vitest/config";
import { timeLimits } from "../../vitest.time-limits.ts";

export default defineProject({
  test: { name: "api", include: ["src/**/*.test.ts"], environment: "node", ...timeLimits() },
});
