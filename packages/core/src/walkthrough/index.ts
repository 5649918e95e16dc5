export * from "./walkthrough.ts";
