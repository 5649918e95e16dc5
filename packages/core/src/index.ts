export * from "./constants.ts";
export * from "./helpers/index.ts";
export * from "./permissions/index.ts";
export * from "./timezones/index.ts";
