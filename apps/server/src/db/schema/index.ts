export * from "./accounts.ts";
export * from "./agents.ts";
export * from "./auth.ts";
export * from "./domains.ts";
export * from "./outbox.ts";
export * from "./system.ts";
