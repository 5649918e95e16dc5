export * from "./infer-types.ts";
export * from "./log-fields.ts";
export * from "./log-query.ts";
export * from "./sql-filter.ts";
