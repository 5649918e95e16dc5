import type { AppContext } from "../../app-context.ts";
import { createAccountsRepository } from "./accounts.repository.ts";
import { accountsRoutes } from "./accounts.routes.ts";
import { createAccountsService } from "./accounts.service.ts";

/** Accounts: profile fields, images, enable/disable, usernames. Its repository creates accounts for others. */
export function createAccountsModule(context: AppContext) {
  const repository = createAccountsRepository(context.database.db);
  const accounts = createAccountsService({ repo: repository, storage: context.storage });
  return { repository, accounts, routes: accountsRoutes(accounts) };
}

export type AccountsModule = ReturnType<typeof createAccountsModule>;
