import { Readable } from "node:stream";
import { stripeBillingWebhook } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../app-context.ts";
import {
  sandboxSubscriptionPayments,
  stripeSubscriptionPayments,
} from "../../providers/payments/subscription-payments.ts";
import type { LedgerService } from "../ledger/index.ts";
import { billingRawBodies, billingRoutes } from "./billing.routes.ts";
import { createBillingService } from "./billing.service.ts";
import { sandboxRenewalsJob } from "./jobs.ts";

/** How often the sandbox looks for subscriptions whose period ended. */
const RENEWAL_CHECK_MS = 15 * 60 * 1000;

/**
 * Plans and subscriptions: the product catalogue (seeded by migration 0023), partners' and resellers'
 * offers, subscribing through the payments provider (PAYMENTS: the sandbox's test-card page, or Stripe
 * Checkout in subscription mode and its signed webhook), cancelling and the customer portal. Payments are
 * ledger postings; the organisation's premium flag follows the subscription.
 */
export function createBillingModule(context: AppContext, deps: { ledger: LedgerService }) {
  const { config } = context;
  const stripe =
    config.payments.provider === "stripe"
      ? stripeSubscriptionPayments({
          secretKey: config.payments.secretKey,
          webhookSecret: config.payments.webhookSecret,
          apiUrl: config.payments.apiUrl,
        })
      : null;
  const payments = stripe ?? sandboxSubscriptionPayments(config.publicUrl);
  const { limits } = context;
  const billing = createBillingService({
    money: limits.money,
    db: context.database.db,
    ledger: deps.ledger,
    payments,
    publicUrl: config.publicUrl,
    log: context.log,
  });
  // The sandbox renews its subscriptions at each period's end (Stripe renews its own and reports invoice.paid),
  // on the job runner like all background work.
  const sandbox = payments.name === "sandbox";
  const nextCheck = () => ({ startAfter: new Date(Date.now() + RENEWAL_CHECK_MS) });
  if (sandbox)
    context.jobs.register(sandboxRenewalsJob, async () => {
      try {
        await billing.renewDue();
      } finally {
        await context.jobs.send(sandboxRenewalsJob, {}, nextCheck());
      }
    });
  return {
    billing,
    routes: billingRoutes(billing, limits, { stripe, sandbox }),
    /** After the job runner started: queue the first renewal check. */
    async start() {
      if (!sandbox) return;
      await context.jobs
        .send(sandboxRenewalsJob, {}, nextCheck())
        .catch((error: unknown) => context.log.warn({ err: error }, "could not queue the sandbox renewals"));
    },
  };
}

/** Keeps the exact bytes of Stripe's billing webhook body (its signature covers them). */
export function keepRawBillingWebhookBodies(app: FastifyInstance): void {
  app.addHook("preParsing", async (request, _reply, payload) => {
    if (request.routeOptions.url !== stripeBillingWebhook.path) return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.from(chunk as Buffer));
    const raw = Buffer.concat(chunks);
    billingRawBodies.set(request, raw);
    const copy = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
    copy.receivedEncodedLength = raw.length;
    return copy;
  });
}

export type BillingModule = ReturnType<typeof createBillingModule>;

declare module "fastify" {
  interface FastifyInstance {
    /** The billing module, for tests that hold the instance. */
    billing: BillingModule;
  }
}
