import { BREAKPOINTS } from "@switchboard/core";

export type BreakpointName = keyof typeof BREAKPOINTS | "base";

/** The largest breakpoint a viewport width reaches ("base" below the smallest). */
export function breakpointForWidth(width: number): BreakpointName {
  let current: BreakpointName = "base";
  for (const [name, minWidth] of Object.entries(BREAKPOINTS) as [keyof typeof BREAKPOINTS, number][]) {
    if (width >= minWidth) current = name;
  }
  return current;
}

/** Mantine breakpoints are em values of a 16 px root. */
export function pxToEm(px: number): string {
  return `${px / 16}em`;
}

/** `(min-width: 64em)` for the md breakpoint and so on. */
export function minWidthQuery(name: keyof typeof BREAKPOINTS): string {
  return `(min-width: ${pxToEm(BREAKPOINTS[name])})`;
}
