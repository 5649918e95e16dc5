/** The domains module's public entry point: other modules use it only through what this file exports. */
export type { DomainsModule } from "./domains.module.ts";
export { createDomainsRepository } from "./domains.repository.ts";
export { toProfile } from "./domains.service.ts";
