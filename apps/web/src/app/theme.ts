import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  darken,
  luminance,
  type MantineColorsTuple,
  toRgba,
} from "@mantine/core";
import { BREAKPOINTS } from "@switchboard/core";
import { pxToEm } from "../lib/breakpoints.ts";

/** The light scheme's base shade for filled colours (white on indigo 7 is 5.0:1; Mantine's 6 is 4.3:1). */
const LIGHT_SHADE = 7;

const SYSTEM_FONTS =
  'system-ui, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji"';

/** Mantine theme: the product's breakpoints (spec §9) and the shades readable at WCAG AA. */
export const theme = createTheme({
  primaryColor: "indigo",
  primaryShade: { light: LIGHT_SHADE, dark: 8 },
  breakpoints: {
    xs: pxToEm(BREAKPOINTS.xs),
    sm: pxToEm(BREAKPOINTS.sm),
    md: pxToEm(BREAKPOINTS.md),
    lg: pxToEm(BREAKPOINTS.lg),
    xl: pxToEm(BREAKPOINTS.xl),
  },
  // The system's own UI font first (system-ui names it on every platform): the browser finds it at once
  // instead of trying each family of a long list that the system may not have (issue #23: a page's first
  // layout took up to 80 ms on Lighthouse's phone resolving Mantine's default stack).
  fontFamily: SYSTEM_FONTS,
  headings: { fontFamily: SYSTEM_FONTS },
  // A link inside a sentence must not rely on colour alone (WCAG 1.4.1).
  components: { Anchor: { defaultProps: { underline: "always" } } },
});

/** WCAG AA for normal text is 4.5:1; a little above it absorbs rounding in the browser's blending. */
const READABLE = 4.6;

function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** `color` at `opacity` over white, as an opaque colour (what a light variant's background looks like). */
function overWhite(color: string, opacity: number): string {
  const { r, g, b } = toRgba(color);
  const blend = (channel: number) => Math.round(channel * opacity + 255 * (1 - opacity));
  return `rgb(${blend(r)}, ${blend(g)}, ${blend(b)})`;
}

/** `color`, darkened just enough to read at AA against `background`. */
export function readableOn(color: string, background: string): string {
  for (let amount = 0; amount < 1; amount += 0.05) {
    const candidate = amount === 0 ? color : darken(color, amount);
    if (contrast(candidate, background) >= READABLE) return candidate;
  }
  return "#000";
}

/**
 * Light-scheme colour variables that meet AA: Mantine's bright palettes (green, teal, yellow, orange, red)
 * put white on a filled button or a light badge's text below 4.5:1. Filled colours, their text and outline
 * are darkened until white reads on them; a light variant's text until it reads on its tinted background.
 * Secondary ("dimmed") text is gray 7 (8.2:1; Mantine's gray 6 is 3.3:1). The dark scheme keeps Mantine's.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = { "--mantine-color-dimmed": "var(--mantine-color-gray-7)" };
  for (const [name, shades] of Object.entries(DEFAULT_THEME.colors) as [string, MantineColorsTuple][]) {
    const filled = readableOn(shades[LIGHT_SHADE], "#ffffff");
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.12);
    light[`--mantine-color-${name}-text`] = filled;
    light[`--mantine-color-${name}-outline`] = filled;
    light[`--mantine-color-${name}-light-color`] = readableOn(
      shades[9],
      overWhite(shades[LIGHT_SHADE], 0.12),
    );
  }
  return { variables: {}, light, dark: { "--mantine-color-dimmed": "var(--mantine-color-dark-1)" } };
};
