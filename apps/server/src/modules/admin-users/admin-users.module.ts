import type { AppContext } from "../../app-context.ts";
import type { DomainsModule } from "../domains/index.ts";
import { createAdminUsersRepository } from "./admin-users.repository.ts";
import { adminUsersRoutes } from "./admin-users.routes.ts";
import { createAdminUsersService } from "./admin-users.service.ts";

/** Members of an account: invitations (links to the product or the partner's own host), roles, removal. */
export function createAdminUsersModule(context: AppContext, deps: { domains: DomainsModule }) {
  const adminUsers = createAdminUsersService({
    repo: createAdminUsersRepository(context.database.db),
    email: context.email,
    publicUrl: context.config.publicUrl,
    allowLocalRedirects: context.config.env !== "production",
    isPartnerHost: deps.domains.domains.isPartnerHost,
  });
  return { adminUsers, routes: adminUsersRoutes(adminUsers) };
}

export type AdminUsersModule = ReturnType<typeof createAdminUsersModule>;
