export * from "./accounts.ts";
export * from "./auth.ts";
export * from "./outbox.ts";
export * from "./system.ts";
