import type { AppContext } from "../../app-context.ts";
import { sandboxConnect, stripeConnect } from "../../providers/payments/connect-provider.ts";
import { paypalPayouts } from "../../providers/payouts/paypal-payouts.ts";
import { sandboxPayouts } from "../../providers/payouts/sandbox-payouts.ts";
import type { WalletModule } from "../wallet/index.ts";
import { processWithdrawalJob } from "./jobs.ts";
import { createStripeConnect, type StripeConnect } from "./stripe-connect.ts";
import { withdrawalRoutes } from "./withdrawals.routes.ts";
import { createWithdrawalsService } from "./withdrawals.service.ts";

/**
 * Withdrawals from the wallet: to a lightning invoice (paid by the LIGHTNING node) or a PayPal / Venmo
 * payout (PAYOUTS: the offline sandbox, or PayPal's Payouts API). The request holds the funds and queues
 * the payout job in one transaction; the job settles or releases them.
 */
export function createWithdrawalsModule(context: AppContext, deps: { wallet: WalletModule }) {
  const { config } = context;
  const payouts =
    config.payouts.provider === "paypal"
      ? paypalPayouts({
          clientId: config.payouts.clientId,
          clientSecret: config.payouts.clientSecret,
          apiUrl: config.payouts.apiUrl,
        })
      : sandboxPayouts();
  const connectProvider =
    config.payments.provider === "stripe"
      ? stripeConnect({ secretKey: config.payments.secretKey, apiUrl: config.payments.apiUrl })
      : sandboxConnect(context.database.db, config.publicUrl);
  let connect: StripeConnect | null = null;
  const { limits } = context;
  const service = createWithdrawalsService({
    money: limits.money,
    stripeTransfer: (row) => (connect as StripeConnect).process(row),
    withdrawals: deps.wallet.withdrawals,
    wallet: deps.wallet.wallet,
    lightning: deps.wallet.lightning,
    payouts,
    jobs: context.jobs,
    publicUrl: config.publicUrl,
    log: context.log,
    ownNodeKey: deps.wallet.sandboxNode?.publicKey ?? null,
  });
  connect = createStripeConnect({
    db: context.database.db,
    provider: connectProvider,
    withdrawals: deps.wallet.withdrawals,
    publicUrl: config.publicUrl,
    hold: (access, input) => service.hold(access, input),
  });
  context.jobs.register(processWithdrawalJob, (payload, attempt) =>
    service.process(payload.withdrawalId, attempt),
  );
  return {
    service,
    payouts,
    /** Resolves when no withdrawal job is queued or running (tests). */
    idle: (timeoutMs?: number) => context.jobs.idle([processWithdrawalJob], timeoutMs),
    connect,
    routes: withdrawalRoutes(service, connect, deps.wallet.sandboxNode, limits),
  };
}

export type WithdrawalsModule = ReturnType<typeof createWithdrawalsModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** The withdrawals module, for tests that hold the instance. */
    withdrawals: WithdrawalsModule;
  }
}
