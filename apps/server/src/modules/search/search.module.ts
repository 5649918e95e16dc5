import * as api from "@switchboard/api";
import type { AppContext } from "../../app-context.ts";
import { handle } from "../../http/routes.ts";
import { createSearchService } from "./search.service.ts";

/** One search box (GET /api/v1/search/{target}, /enhancedSearch/{target}) over contacts, conversations, agents, accounts. */
export function createSearchModule(context: AppContext) {
  const service = createSearchService(context.database.db);
  return {
    routes: [
      handle(api.search, ({ params, query }, { access }) =>
        service.search(access, params.target, query.limit, false),
      ),
      handle(api.enhancedSearch, ({ params, query }, { access }) =>
        service.search(access, params.target, query.limit, true),
      ),
    ],
  };
}
