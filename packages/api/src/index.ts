export * from "./client.ts";
export * from "./errors.ts";
export * from "./openapi.ts";
export * from "./route.ts";
export * from "./route-table.ts";
export * from "./routes/accounts.ts";
export * from "./routes/auth.ts";
export * from "./routes/system.ts";
