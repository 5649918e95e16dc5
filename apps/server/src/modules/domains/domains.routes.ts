import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { DomainsService } from "./domains.service.ts";

export function domainsRoutes(domains: DomainsService) {
  return [
    handle(api.lookupDomain, async ({ body }) => {
      const profile = await domains.lookup(body.domain);
      return profile
        ? { success: true as const, profile }
        : { success: true as const, mainHost: true as const, profile };
    }),
    handle(api.getDomain, ({ query }, { access }) => domains.get(access.target, query.domain)),
    handle(api.saveDomain, ({ body }, { access }) => domains.save(access.target, body)),
    handle(api.deleteDomain, ({ body }, { access }) => domains.remove(access.target, body.domain)),
    handle(api.listDomains, async (_input, { access }) => ({
      success: true as const,
      domains: await domains.list(access.target),
    })),
    handle(api.setDefaultDomain, ({ body }, { access }) => domains.setDefault(access.target, body.domain)),
  ];
}
