export * from "./constants.ts";
export * from "./permission-flags.ts";
