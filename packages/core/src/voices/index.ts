export * from "./voices.ts";
