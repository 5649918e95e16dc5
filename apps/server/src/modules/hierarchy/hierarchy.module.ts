import type { AppContext } from "../../app-context.ts";
import type { AccountsModule } from "../accounts/index.ts";
import type { AdminUsersModule } from "../admin-users/index.ts";
import { createHierarchyRepository } from "./hierarchy.repository.ts";
import { hierarchyRoutes } from "./hierarchy.routes.ts";
import { createHierarchyService } from "./hierarchy.service.ts";

/** The account hierarchy: creating, searching, moving and deleting accounts below the caller. */
export function createHierarchyModule(
  context: AppContext,
  deps: { accounts: AccountsModule; adminUsers: AdminUsersModule },
) {
  const hierarchy = createHierarchyService({
    repo: createHierarchyRepository(context.database.db),
    accounts: deps.accounts.repository,
    access: context.access,
    adminUsers: deps.adminUsers.adminUsers,
  });
  return { hierarchy, routes: hierarchyRoutes(hierarchy) };
}

export type HierarchyModule = ReturnType<typeof createHierarchyModule>;
