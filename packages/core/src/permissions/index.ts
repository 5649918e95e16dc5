export * from "./flags.ts";
export * from "./permissions.ts";
export * from "./roles.ts";
export * from "./viewing-as.ts";
