import { createTheme } from "@mantine/core";
import { BREAKPOINTS } from "@switchboard/core";
import { pxToEm } from "../lib/breakpoints.ts";

/** Mantine theme: the product's breakpoints (spec §9). */
export const theme = createTheme({
  primaryColor: "indigo",
  breakpoints: {
    xs: pxToEm(BREAKPOINTS.xs),
    sm: pxToEm(BREAKPOINTS.sm),
    md: pxToEm(BREAKPOINTS.md),
    lg: pxToEm(BREAKPOINTS.lg),
    xl: pxToEm(BREAKPOINTS.xl),
  },
});
