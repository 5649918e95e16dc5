import * as api from "@switchboard/api";
import { handle } from "../../http/routes.ts";
import type { HierarchyService } from "./hierarchy.service.ts";

const FILTER_KEYS = Object.keys(api.organizationFiltersSchema.shape) as (keyof api.OrganizationFilters)[];

export function hierarchyRoutes(hierarchy: HierarchyService) {
  return [
    handle(api.createOrganization, ({ body }, { access }) => hierarchy.createOrganization(access, body)),
    handle(api.createReseller, ({ body }, { access }) => hierarchy.createReseller(access, body)),
    handle(api.createAgentAccount, ({ body }, { access }) => hierarchy.createAgent(access, body)),
    handle(api.deleteOrganization, ({ body }, { access }) =>
      hierarchy.deleteOrganization(access, body.targetOrganizationId),
    ),
    handle(api.deleteAgentAccount, ({ query, body }, { access }) =>
      hierarchy.deleteAgent(access, query.targetOrganizationId, body.targetAccountId),
    ),
    handle(api.listOrganizations, ({ query }, { access }) => hierarchy.list(access, ["organization"], query)),
    handle(api.listResellers, ({ query }, { access }) => hierarchy.list(access, ["reseller"], query)),
    handle(api.listAgentAccounts, ({ query }, { access }) => hierarchy.list(access, ["agent"], query)),
    handle(api.listPartners, ({ query }) => hierarchy.listPartners(query)),
    handle(api.searchOrganizations, ({ query }, { access }) => {
      const filters = Object.fromEntries(
        FILTER_KEYS.map((key) => [key, query[key]]),
      ) as api.OrganizationFilters;
      return hierarchy.searchOrganizations(access, filters, query);
    }),
    handle(api.searchAccount, ({ body }, { access }) =>
      hierarchy.search(access, body.phrase, body.pageSize, false),
    ),
    handle(api.searchAccountEnhanced, ({ body }, { access }) =>
      hierarchy.search(access, body.phrase, body.pageSize, true),
    ),
  ];
}
