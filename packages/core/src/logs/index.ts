export * from "./call-analysis.ts";
export * from "./infer-types.ts";
export * from "./log-channels.ts";
export * from "./log-fields.ts";
export * from "./log-query.ts";
export * from "./sql-filter.ts";
