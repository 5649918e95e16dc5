import { Readable } from "node:stream";
import { stripeWebhook } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../app-context.ts";
import { lndNode } from "../../providers/lightning/lnd-node.ts";
import { sandboxLightningNode } from "../../providers/lightning/sandbox-node.ts";
import { sandboxPayments } from "../../providers/payments/sandbox-payments.ts";
import { stripePayments } from "../../providers/payments/stripe-payments.ts";
import { coinbaseRates, sandboxRates } from "../../providers/rates/rate-provider.ts";
import { createLedgerModule } from "../ledger/index.ts";
import { createPaymentLinks } from "./payment-links.ts";
import { rawBodies, walletRoutes } from "./wallet.routes.ts";
import { createWalletService } from "./wallet.service.ts";

/**
 * The prepaid wallet: balance and transactions from the ledger, card top-ups (PAYMENTS: the sandbox's
 * hosted test-card page, or Stripe Checkout and its signed webhook), lightning top-ups (LIGHTNING: the
 * sandbox node with its wallet page, or LND) and the exchange rate (EXCHANGE_RATES).
 */
export function createWalletModule(context: AppContext) {
  const { config } = context;
  const ledgerModule = createLedgerModule(context);
  const stripe =
    config.payments.provider === "stripe"
      ? stripePayments({
          secretKey: config.payments.secretKey,
          webhookSecret: config.payments.webhookSecret,
          apiUrl: config.payments.apiUrl,
        })
      : null;
  const payments = stripe ?? sandboxPayments(config.publicUrl);
  const sandboxNode =
    config.lightning.provider === "sandbox"
      ? sandboxLightningNode(context.database.db, context.secretKey)
      : null;
  const lightning =
    config.lightning.provider === "lnd"
      ? lndNode({ restUrl: config.lightning.restUrl, macaroon: config.lightning.macaroon })
      : (sandboxNode as NonNullable<typeof sandboxNode>);
  const rates =
    config.exchangeRates.provider === "coinbase" ? coinbaseRates(config.exchangeRates.url) : sandboxRates();
  const links = createPaymentLinks({ db: context.database.db, publicUrl: config.publicUrl });
  const { limits } = context;
  const wallet = createWalletService({
    money: limits.money,
    links,
    db: context.database.db,
    ledger: ledgerModule.ledger,
    payments,
    lightning,
    rates,
    publicUrl: config.publicUrl,
    log: context.log,
    sandboxWalletUrl: sandboxNode
      ? (invoice) => `${config.publicUrl}/sandbox/lightning/wallet?invoice=${encodeURIComponent(invoice)}`
      : null,
  });
  return {
    wallet,
    ledger: ledgerModule.ledger,
    withdrawals: ledgerModule.withdrawals,
    sandboxNode,
    lightning,
    links,
    routes: walletRoutes(wallet, links, limits, {
      stripe,
      sandboxNode,
      sandboxPayments: payments.name === "sandbox",
    }),
  };
}

/** Keeps the exact bytes of Stripe's webhook body (its signature covers them) before JSON parsing. */
export function keepRawWebhookBodies(app: FastifyInstance): void {
  app.addHook("preParsing", async (request, _reply, payload) => {
    if (request.routeOptions.url !== stripeWebhook.path) return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.from(chunk as Buffer));
    const raw = Buffer.concat(chunks);
    rawBodies.set(request, raw);
    const copy = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
    copy.receivedEncodedLength = raw.length;
    return copy;
  });
}

export type WalletModule = ReturnType<typeof createWalletModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** The wallet module, for tests that hold the instance. */
    wallet: WalletModule;
  }
}
