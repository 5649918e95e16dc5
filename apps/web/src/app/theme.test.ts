import { DEFAULT_THEME, luminance } from "@mantine/core";
import { describe, expect, it } from "vitest";
import { cssVariablesResolver, readableOn, theme } from "./theme.ts";

const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};

describe("theme colours", () => {
  it("darkens a colour only as far as AA needs", () => {
    expect(readableOn("#212529", "#ffffff")).toBe("#212529");
    const green = readableOn(DEFAULT_THEME.colors.green[7], "#ffffff");
    expect(contrast(green, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrast(green, "#ffffff")).toBeLessThan(6);
  });

  it("puts white on every filled colour and every light badge's text at 4.5:1 or more", () => {
    const { light } = cssVariablesResolver({ ...DEFAULT_THEME, ...theme } as typeof DEFAULT_THEME);
    for (const name of Object.keys(DEFAULT_THEME.colors)) {
      expect(
        contrast(light[`--mantine-color-${name}-filled`] as string, "#ffffff"),
        name,
      ).toBeGreaterThanOrEqual(4.5);
      expect(
        contrast(light[`--mantine-color-${name}-light-color`] as string, "#ffffff"),
        name,
      ).toBeGreaterThanOrEqual(4.5);
    }
    expect(light["--mantine-color-dimmed"]).toBe("var(--mantine-color-gray-7)");
  });
});
