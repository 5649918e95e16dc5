export * from "./normalize.ts";
export * from "./operators.ts";
export * from "./relative-date.ts";
export * from "./summary.ts";
