export * from "./timezone-data.ts";
export * from "./timezones.ts";
