import type { CompletedPayment, PaymentsProvider } from "./payments-provider.ts";
import { stripeClient } from "./stripe-client.ts";

export type StripePayments = PaymentsProvider & {
  name: "stripe";
  /**
   * Checks the Stripe-Signature header of a webhook against the endpoint's secret (stripe.webhooks
   * .constructEvent: HMAC-SHA256 over `timestamp.body`, five minutes' tolerance) and answers the completed
   * payment it reports, or null for events that credit nothing. Throws when the signature does not verify.
   */
  parseWebhook(rawBody: Buffer | string, signature: string): CompletedPayment | null;
};

/** Stripe Checkout Sessions (mode payment) and its signed webhooks (PAYMENTS=stripe). */
export function stripePayments(options: {
  secretKey: string;
  webhookSecret: string | undefined;
  /** Another API host (stripe-mock, a test double); Stripe's own by default. */
  apiUrl?: string | undefined;
}): StripePayments {
  const stripe = stripeClient(options);
  return {
    name: "stripe",
    async createCheckout(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          client_reference_id: request.sessionId,
          metadata: { sessionId: request.sessionId },
          payment_intent_data: { metadata: { sessionId: request.sessionId } },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency,
                unit_amount: request.amountCents,
                product_data: { name: request.description },
              },
            },
          ],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
        },
        { idempotencyKey: `checkout:${request.sessionId}` },
      );
      if (!session.url) throw new Error("Stripe answered a checkout session without a url");
      return { providerSessionId: session.id, url: session.url };
    },
    parseWebhook(rawBody, signature) {
      if (!options.webhookSecret) throw new Error("STRIPE_WEBHOOK_SECRET is not set");
      const event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      if (
        event.type !== "checkout.session.completed" &&
        event.type !== "checkout.session.async_payment_succeeded"
      )
        return null;
      const session = event.data.object;
      if (session.payment_status !== "paid") return null;
      const sessionId = session.client_reference_id ?? session.metadata?.sessionId;
      if (!sessionId) return null;
      return {
        sessionId,
        providerSessionId: session.id,
        amountCents: session.amount_total ?? 0,
        currency: session.currency ?? "usd",
      };
    },
  };
}
