import type { AppContext } from "../../app-context.ts";
import type { AccountsModule } from "../accounts/index.ts";
import type { WalletModule } from "../wallet/index.ts";
import { referralRoutes } from "./referrals.routes.ts";
import { createReferralsService } from "./referrals.service.ts";

/**
 * Referrals (issue 21): each account's referral link, the rewards its referred organisations' payments earn
 * (a ledger payment hook: wallet top-ups and plans), claiming them into the wallet; and super admins'
 * refunds into an account's wallet. Created after the wallet and billing, whose ledger it hooks.
 */
export function createReferralsModule(
  context: AppContext,
  deps: { wallet: WalletModule; accounts: AccountsModule },
) {
  const referrals = createReferralsService({
    db: context.database.db,
    ledger: deps.wallet.ledger,
    publicUrl: context.config.publicUrl,
    log: context.log,
    rewardBasisPoints: context.config.referrals.rewardBasisPoints,
    findByUsername: deps.accounts.repository.findByUsername,
    loadAccount: context.access.loadAccount,
    satToUsd: async () => (await deps.wallet.wallet.exchangeRate()).satToUsd,
    money: context.limits.money,
  });
  return { referrals, routes: referralRoutes(referrals) };
}

export type ReferralsModule = ReturnType<typeof createReferralsModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** The referrals module, for tests that hold the instance. */
    referrals: ReferralsModule;
  }
}
