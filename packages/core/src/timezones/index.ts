export * from "./calling-hours.ts";
export * from "./timezone-data.ts";
export * from "./timezones.ts";
export * from "./zoned-time.ts";
