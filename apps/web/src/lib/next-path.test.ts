import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path.ts";

describe("safeNextPath", () => {
  it("keeps paths of this site", () => {
    expect(safeNextPath("/app/org/42/inbox?members=true")).toBe("/app/org/42/inbox?members=true");
    expect(safeNextPath("/app")).toBe("/app");
  });

  it("falls back to /app for anything else", () => {
    for (const next of [null, "", "https://evil.example", "//evil.example/app", "/\\evil.example", "app"])
      expect(safeNextPath(next)).toBe("/app");
  });
});
