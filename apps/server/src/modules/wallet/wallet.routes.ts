import * as api from "@switchboard/api";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError, badRequest, notFound } from "../../api-error.ts";
import type { LoadLimits } from "../../http/load-limits.ts";
import { handle } from "../../http/routes.ts";
import type { SandboxLightningNode } from "../../providers/lightning/sandbox-node.ts";
import type { StripePayments } from "../../providers/payments/stripe-payments.ts";
import type { PaymentLinks } from "./payment-links.ts";
import { sandboxCheckoutPage, sandboxWalletPage } from "./sandbox-pages.ts";
import type { WalletService } from "./wallet.service.ts";

/** Request bodies kept as received, for the routes whose signature covers the exact bytes (Stripe's). */
export const rawBodies = new WeakMap<FastifyRequest, Buffer>();

const html = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export function walletRoutes(
  wallet: WalletService,
  links: PaymentLinks,
  limits: LoadLimits,
  providers: {
    stripe: StripePayments | null;
    sandboxNode: SandboxLightningNode | null;
    sandboxPayments: boolean;
  },
) {
  const sandboxCheckout = () => {
    if (!providers.sandboxPayments) throw notFound(api.WALLET_MESSAGES.sandboxOff);
  };
  const sandboxNode = () => {
    if (!providers.sandboxNode) throw notFound(api.WALLET_MESSAGES.sandboxOff);
    return providers.sandboxNode;
  };
  return [
    handle(api.getRecentTransactions, ({ query }, { access }) =>
      wallet.recent(access, query.limit, query.before),
    ),
    handle(api.getExchangeRates, () => wallet.exchangeRate()),
    handle(api.checkoutCredit, ({ body }, { access, request }) => {
      limits.payments.check(request, access);
      // With a slug it pays that payment link (no token needed: `anonymousWith`), else tops up the wallet.
      if (body.slug) return wallet.checkoutLink({ ...body, slug: body.slug }, originOf(request));
      return wallet.checkout(access, body, originOf(request));
    }),
    handle(api.listPaymentLinks, (_input, { access }) => links.list(access)),
    handle(api.createPaymentLink, ({ body }, { access }) => links.create(access, body)),
    handle(api.updatePaymentLink, ({ params, body }, { access }) =>
      links.update(access, params.linkId, body),
    ),
    handle(api.fetchPaymentSlug, ({ body }) => links.fetchPublic(body.slug)),
    handle(api.getCheckoutSession, ({ params }, { access }) => wallet.checkoutOf(access, params.sessionId)),
    handle(api.sandboxCheckoutPage, async ({ params }, { reply }) => {
      sandboxCheckout();
      return html(reply, sandboxCheckoutPage(await wallet.sandboxCheckoutRow(params.sessionId)));
    }),
    handle(api.sandboxCheckoutPay, async ({ params, body }, { reply, request }) => {
      sandboxCheckout();
      limits.payments.check(request, undefined);
      const outcome = await wallet.sandboxCheckout(params.sessionId, body);
      if (outcome.kind !== "error") return reply.redirect(outcome.redirect, 303);
      return html(reply, sandboxCheckoutPage(outcome.session, { ...body, error: outcome.message }), 402);
    }),
    handle(api.stripeWebhook, async (_input, { request }) => {
      if (!providers.stripe) throw notFound(api.WALLET_MESSAGES.notStripe);
      const signature = request.headers["stripe-signature"];
      const raw = rawBodies.get(request);
      if (typeof signature !== "string" || !raw) throw badRequest(api.WALLET_MESSAGES.stripeSignature);
      let payment: ReturnType<StripePayments["parseWebhook"]>;
      try {
        payment = providers.stripe.parseWebhook(raw, signature);
      } catch (error) {
        request.log.warn({ err: error }, "Stripe webhook refused");
        throw new ApiError(400, api.WALLET_MESSAGES.stripeSignature);
      }
      if (payment) await wallet.paymentCompleted(payment);
      return { received: true as const };
    }),
    handle(api.requestInvoice, ({ body }, { access, request }) => {
      limits.payments.check(request, access);
      return body.slug
        ? wallet.requestLinkInvoice({ ...body, slug: body.slug })
        : wallet.requestInvoice(access, body);
    }),
    handle(api.getPendingInvoice, (_input, { access }) => wallet.pendingInvoice(access)),
    handle(api.resetPendingInvoice, (_input, { access }) => wallet.resetPendingInvoice(access)),
    handle(api.provePendingInvoicePaid, ({ body }, { access, request }) => {
      limits.payments.check(request, access);
      return body.slug ? wallet.proveLinkPaid({ ...body, slug: body.slug }) : wallet.provePaid(access, body);
    }),
    handle(api.validateInvoice, ({ query }, { access, request }) => {
      limits.invoiceDecode.check(request, access);
      return wallet.validate(query.invoice);
    }),
    handle(api.sandboxLightningWalletPage, async ({ query }, { reply }) => {
      const node = sandboxNode();
      return html(
        reply,
        sandboxWalletPage({
          invoice: query.invoice ?? "",
          received: await node.received(),
          ...(query.receive ? { newInvoice: query.receive } : {}),
        }),
      );
    }),
    handle(api.sandboxLightningPay, async ({ body }, { reply }) => {
      const node = sandboxNode();
      const result = await node.pay(body.invoice);
      return html(
        reply,
        sandboxWalletPage({ invoice: body.invoice, result, received: await node.received() }),
        result.ok ? 200 : 402,
      );
    }),
  ];
}
