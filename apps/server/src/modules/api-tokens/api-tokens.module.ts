import type { AppContext } from "../../app-context.ts";
import { createApiTokensRepository } from "./api-tokens.repository.ts";
import { apiTokensRoutes } from "./api-tokens.routes.ts";
import { createApiTokensService } from "./api-tokens.service.ts";

/**
 * Organisation API tokens. Resolving one is the access resolver's work (src/access/access.ts): a token of
 * kind `api` acts for its organisation only, as an admin of it.
 */
export function createApiTokensModule(context: AppContext) {
  const tokens = createApiTokensService({ repo: createApiTokensRepository(context.database.db) });
  return { tokens, routes: apiTokensRoutes(tokens) };
}

export type ApiTokensModule = ReturnType<typeof createApiTokensModule>;
