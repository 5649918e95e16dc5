export * from "./clean-text.ts";
export * from "./redaction.ts";
