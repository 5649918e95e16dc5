import * as api from "@switchboard/api";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError, badRequest, notFound } from "../../api-error.ts";
import type { LoadLimits } from "../../http/load-limits.ts";
import { handle } from "../../http/routes.ts";
import type { StripeSubscriptionPayments } from "../../providers/payments/subscription-payments.ts";
import type { BillingService } from "./billing.service.ts";
import { sandboxPortalPage, sandboxSubscribePage } from "./sandbox-pages.ts";

/** Request bodies kept as received, for Stripe's signature check. */
export const billingRawBodies = new WeakMap<FastifyRequest, Buffer>();

const html = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export function billingRoutes(
  billing: BillingService,
  limits: LoadLimits,
  providers: { stripe: StripeSubscriptionPayments | null; sandbox: boolean },
) {
  const sandbox = () => {
    if (!providers.sandbox) throw notFound(api.WALLET_MESSAGES.sandboxOff);
  };
  return [
    handle(api.getProductCatalog, (_input, { access }) => billing.catalogue(access)),
    handle(api.getProductCatalogPlan, ({ params }, { access }) => billing.plan(access, params.id)),
    handle(api.getCurrentPlan, (_input, { access }) => billing.currentPlan(access)),
    handle(api.getOfferedPlan, (_input, { access }) => billing.offeredPlan(access)),
    handle(api.setOfferedPlan, ({ body }, { access }) => billing.setOfferedPlan(access, body)),
    handle(api.getAllAvailablePlans, (_input, { access }) => billing.allAvailablePlans(access)),
    handle(api.subscribe, ({ body }, { access, request }) => {
      limits.payments.check(request, access);
      return billing.subscribe(access, body, originOf(request));
    }),
    handle(api.getSubscriptionCheckout, ({ params }, { access }) =>
      billing.checkoutFor(access, params.checkoutId),
    ),
    handle(api.cancelSubscription, ({ body }, { access }) => billing.cancel(access, body)),
    handle(api.getBillingCustomerPortalLink, ({ body }, { access, request }) =>
      billing.portalLink(access, body, originOf(request)),
    ),
    handle(api.sandboxSubscribePage, async ({ params }, { reply }) => {
      sandbox();
      const { checkout, plan } = await billing.sandboxCheckoutPage(params.checkoutId);
      return html(reply, sandboxSubscribePage(checkout, plan));
    }),
    handle(api.sandboxSubscribePay, async ({ params, body }, { reply, request }) => {
      sandbox();
      limits.payments.check(request, undefined);
      const outcome = await billing.sandboxPay(params.checkoutId, body);
      if (outcome.kind !== "error") return reply.redirect(outcome.redirect, 303);
      return html(
        reply,
        sandboxSubscribePage(outcome.checkout, outcome.plan, { ...body, error: outcome.message }),
        outcome.status,
      );
    }),
    handle(api.sandboxBillingPortalPage, async ({ params }, { reply }) => {
      sandbox();
      return html(
        reply,
        sandboxPortalPage({ id: params.sessionId, ...(await billing.portalPage(params.sessionId)) }),
      );
    }),
    handle(api.sandboxBillingPortalCancel, async ({ params }, { reply }) => {
      sandbox();
      const page = await billing.portalCancel(params.sessionId);
      return html(reply, sandboxPortalPage({ id: params.sessionId, ...page }));
    }),
    handle(api.stripeBillingWebhook, async (_input, { request }) => {
      if (!providers.stripe) throw notFound(api.WALLET_MESSAGES.notStripe);
      const signature = request.headers["stripe-signature"];
      const raw = billingRawBodies.get(request);
      if (typeof signature !== "string" || !raw) throw badRequest(api.WALLET_MESSAGES.stripeSignature);
      let event: ReturnType<StripeSubscriptionPayments["parseWebhook"]>;
      try {
        event = providers.stripe.parseWebhook(raw, signature);
      } catch (error) {
        request.log.warn({ err: error }, "Stripe billing webhook refused");
        throw new ApiError(400, api.WALLET_MESSAGES.stripeSignature);
      }
      if (event?.kind === "completed") await billing.providerCompleted(event);
      if (event?.kind === "renewed") await billing.providerRenewed(event);
      if (event?.kind === "ended") await billing.providerEnded(event.providerSubscriptionId);
      return { received: true as const };
    }),
  ];
}
