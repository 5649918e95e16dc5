export * from "./machine.ts";
export * from "./state.ts";
export * from "./steps.ts";
export * from "./template-fields.ts";
