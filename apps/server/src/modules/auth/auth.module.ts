import type { AppContext } from "../../app-context.ts";
import type { AccountsModule } from "../accounts/index.ts";
import { createAuthRepository } from "./auth.repository.ts";
import { authRoutes } from "./auth.routes.ts";
import { createAuthService } from "./auth.service.ts";

/** Sign-up, sign-in by code (e-mail or phone), verification of addresses, sessions and logout. */
export function createAuthModule(context: AppContext, deps: { accounts: AccountsModule }) {
  const auth = createAuthService({
    repo: createAuthRepository(context.database.db),
    accounts: deps.accounts.repository,
    email: context.email,
    sms: context.sms,
    secretKey: context.secretKey,
    loadAccount: context.access.loadAccount,
    codesPerNetwork: context.config.signInCodesPerNetwork,
  });
  return { auth, routes: authRoutes(auth, context.config.devOutbox ? context.outbox : null) };
}
