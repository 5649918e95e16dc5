/** The agents module's public entry point: other modules use it only through what this file exports. */
export type { AgentsService } from "./agents.service.ts";
export { createAppsRepository } from "./apps.repository.ts";
export { readAppSecret } from "./apps.service.ts";
export { findBuiltInApp } from "./built-in-apps.ts";
export { type TemplatesService, variablesFrom } from "./templates.service.ts";
