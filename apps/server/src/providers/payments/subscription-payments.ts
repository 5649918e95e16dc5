import Stripe from "stripe";
import { stripeClient } from "./stripe-client.ts";

/**
 * Subscriptions through the payments provider (PAYMENTS): a checkout in subscription mode, cancelling, and
 * the customer portal. The sandbox's checkout and portal are pages on this server (the billing module
 * serves them); Stripe's are Checkout Sessions (mode subscription) and its Billing Portal.
 */
export type SubscriptionCheckoutRequest = {
  /** Our checkout id: Stripe's client_reference_id, and the ledger's idempotency key of the payment. */
  checkoutId: string;
  planName: string;
  amountCents: number;
  interval: "month" | "year";
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string | undefined;
};

/** A subscription checkout the provider reports paid (a verified webhook). */
export type CompletedSubscription = {
  kind: "completed";
  checkoutId: string;
  providerSessionId: string;
  providerSubscriptionId: string | null;
  providerCustomerId: string | null;
  /** The subscription's first invoice (what its checkout charged). */
  providerInvoiceId: string | null;
  amountCents: number;
  currency: string;
};

/** A paid subscription checkout whose payment must go back (another plan of its organisation started first). */
export type CheckoutToRefund = {
  checkoutId: string;
  providerSessionId: string | null;
  providerSubscriptionId: string | null;
  providerInvoiceId: string | null;
};
/** The provider charged a subscription's next period (Stripe's invoice.paid, billing_reason subscription_cycle). */
export type RenewedSubscription = {
  kind: "renewed";
  providerSubscriptionId: string;
  invoiceId: string;
  amountCents: number;
  periodStart: Date;
  periodEnd: Date;
};
/** The provider ended a subscription (cancelled in its portal, or unpaid). */
export type EndedSubscription = { kind: "ended"; providerSubscriptionId: string };

export type SubscriptionPayments = {
  name: "sandbox" | "stripe";
  createSubscriptionCheckout(
    request: SubscriptionCheckoutRequest,
  ): Promise<{ providerSessionId: string | null; url: string }>;
  /** Ends the provider's subscription now (nothing to do for the sandbox: ours is the only record). */
  cancelSubscription(providerSubscriptionId: string | null): Promise<void>;
  /**
   * Gives a checkout's payment back to the card and ends its subscription at the provider, once however
   * often it is called. Answers whether money went back (false: the provider had taken none).
   */
  refundCheckout(checkout: CheckoutToRefund): Promise<{ refunded: boolean }>;
  /** Stripe's Billing Portal session for the customer; null for the sandbox (its portal is ours). */
  portalUrl(providerCustomerId: string | null, returnUrl: string): Promise<string | null>;
};

export function sandboxSubscriptionPayments(publicUrl: string): SubscriptionPayments {
  return {
    name: "sandbox",
    async createSubscriptionCheckout(request) {
      return {
        providerSessionId: null,
        url: `${publicUrl}/sandbox/subscribe/${encodeURIComponent(request.checkoutId)}`,
      };
    },
    async cancelSubscription() {},
    // The sandbox's test card pays with the plan's ledger posting, which a checkout that lost to another
    // never commits: nothing was taken.
    async refundCheckout() {
      return { refunded: false };
    },
    async portalUrl() {
      return null;
    },
  };
}

export type StripeSubscriptionPayments = SubscriptionPayments & {
  name: "stripe";
  /** Checks the Stripe-Signature header; answers what the event means for a subscription, or null. */
  parseWebhook(
    rawBody: Buffer | string,
    signature: string,
  ): CompletedSubscription | RenewedSubscription | EndedSubscription | null;
};

const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** Stripe Checkout Sessions in subscription mode, cancelling, the Billing Portal and signed webhooks. */
export function stripeSubscriptionPayments(options: {
  secretKey: string;
  webhookSecret: string | undefined;
  apiUrl?: string | undefined;
}): StripeSubscriptionPayments {
  const stripe = stripeClient(options);
  return {
    name: "stripe",
    async createSubscriptionCheckout(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "subscription",
          client_reference_id: request.checkoutId,
          metadata: { checkoutId: request.checkoutId },
          subscription_data: { metadata: { checkoutId: request.checkoutId } },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: request.amountCents,
                recurring: { interval: request.interval },
                product_data: { name: `Switchboard ${request.planName}` },
              },
            },
          ],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
        },
        { idempotencyKey: `subscribe:${request.checkoutId}` },
      );
      if (!session.url) throw new Error("Stripe answered a checkout session without a url");
      return { providerSessionId: session.id, url: session.url };
    },
    async cancelSubscription(providerSubscriptionId) {
      if (providerSubscriptionId) await stripe.subscriptions.cancel(providerSubscriptionId);
    },
    async refundCheckout(checkout) {
      const invoice =
        checkout.providerInvoiceId ??
        (checkout.providerSessionId
          ? idOf((await stripe.checkout.sessions.retrieve(checkout.providerSessionId)).invoice)
          : null);
      if (!invoice) throw new Error(`Stripe shows no invoice for checkout ${checkout.checkoutId}`);
      let refunded = false;
      for await (const paid of stripe.invoicePayments.list({ invoice, status: "paid" })) {
        const intent = idOf(paid.payment.payment_intent);
        const charge = idOf(paid.payment.charge);
        if (!intent && !charge) continue;
        try {
          await stripe.refunds.create(intent ? { payment_intent: intent } : { charge: charge as string }, {
            idempotencyKey: `refund:${paid.id}`,
          });
        } catch (error) {
          // A retry after the idempotency key expired (a day): the first attempt gave it back.
          if (
            !(error instanceof Stripe.errors.StripeInvalidRequestError) ||
            error.code !== "charge_already_refunded"
          )
            throw error;
        }
        refunded = true;
      }
      if (checkout.providerSubscriptionId) {
        const subscription = await stripe.subscriptions.retrieve(checkout.providerSubscriptionId);
        if (subscription.status !== "canceled") await stripe.subscriptions.cancel(subscription.id);
      }
      return { refunded };
    },
    async portalUrl(providerCustomerId, returnUrl) {
      if (!providerCustomerId) return null;
      const session = await stripe.billingPortal.sessions.create({
        customer: providerCustomerId,
        return_url: returnUrl,
      });
      return session.url;
    },
    parseWebhook(rawBody, signature) {
      if (!options.webhookSecret) throw new Error("STRIPE_WEBHOOK_SECRET is not set");
      const event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      if (event.type === "invoice.paid") {
        const invoice = event.data.object;
        const subscription = idOf(invoice.parent?.subscription_details?.subscription);
        const period = invoice.lines.data[0]?.period;
        if (invoice.billing_reason !== "subscription_cycle" || !subscription || !invoice.id || !period)
          return null;
        return {
          kind: "renewed",
          providerSubscriptionId: subscription,
          invoiceId: invoice.id,
          amountCents: invoice.amount_paid,
          periodStart: new Date(period.start * 1000),
          periodEnd: new Date(period.end * 1000),
        };
      }
      if (event.type === "customer.subscription.deleted")
        return { kind: "ended", providerSubscriptionId: event.data.object.id };
      if (
        event.type !== "checkout.session.completed" &&
        event.type !== "checkout.session.async_payment_succeeded"
      )
        return null;
      const session = event.data.object;
      if (session.mode !== "subscription" || session.payment_status !== "paid") return null;
      const checkoutId = session.client_reference_id ?? session.metadata?.checkoutId;
      if (!checkoutId) return null;
      return {
        kind: "completed",
        checkoutId,
        providerSessionId: session.id,
        providerSubscriptionId: idOf(session.subscription),
        providerCustomerId: idOf(session.customer),
        providerInvoiceId: idOf(session.invoice),
        amountCents: session.amount_total ?? 0,
        currency: session.currency ?? "usd",
      };
    },
  };
}
