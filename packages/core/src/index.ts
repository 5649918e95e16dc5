export * from "./constants.ts";
export * from "./filters/index.ts";
export * from "./helpers/index.ts";
export * from "./logs/index.ts";
export * from "./onboarding/index.ts";
export * from "./permissions/index.ts";
export * from "./timezones/index.ts";
export * from "./walkthrough/index.ts";
