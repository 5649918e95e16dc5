import { defineProject } from "vitest/config";
import { timeLimits } from "../../vitest.time-limits.ts";

export default defineProject({
  test: { name: "core", include: ["src/**/*.test.ts"], environment: "node", ...timeLimits() },
});
