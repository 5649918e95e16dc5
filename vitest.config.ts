import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/core", "packages/api", "apps/server", "apps/web"],
  },
});
