/** Responsive breakpoints in px (product spec §9). */
export const BREAKPOINTS = { xs: 550, sm: 768, md: 1024, lg: 1280, xl: 1536, xxl: 1836 } as const;
