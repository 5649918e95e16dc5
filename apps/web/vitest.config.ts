import { type ConfigEnv, defineProject, mergeConfig } from "vitest/config";
import { timeLimits } from "../../vitest.time-limits.ts";
import viteConfig from "./vite.config.ts";

export default async (env: ConfigEnv) =>
  mergeConfig(
    await viteConfig(env),
    defineProject({
      test: {
        name: "web",
        environment: "jsdom",
        include: ["src/**/*.test.{ts,tsx}", "build/**/*.test.ts"],
        setupFiles: ["src/test/setup.ts"],
        // Route tests import the lazy shell and a product area on first render: slow on a busy machine.
        ...timeLimits(15_000),
      },
    }),
  );
