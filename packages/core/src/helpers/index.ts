export * from "./caller-name.ts";
export * from "./favorites.ts";
export * from "./form-field.ts";
export * from "./numeric.ts";
export * from "./phone.ts";
export * from "./pluralize.ts";
export * from "./url.ts";
export * from "./usage-series.ts";
