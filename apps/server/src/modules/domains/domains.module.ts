import type { AppContext } from "../../app-context.ts";
import { createDomainsRepository } from "./domains.repository.ts";
import { domainsRoutes } from "./domains.routes.ts";
import { createDomainsService } from "./domains.service.ts";

/** Partners' white-label hosts and their settings. */
export function createDomainsModule(context: AppContext) {
  const domains = createDomainsService({
    repo: createDomainsRepository(context.database.db),
    publicUrl: context.config.publicUrl,
  });
  return { domains, routes: domainsRoutes(domains) };
}

export type DomainsModule = ReturnType<typeof createDomainsModule>;
