/** The hierarchy module's public entry point: other modules use it only through what this file exports. */
export type { HierarchyModule } from "./hierarchy.module.ts";
export type { HierarchyService } from "./hierarchy.service.ts";
