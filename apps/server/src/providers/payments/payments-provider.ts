/**
 * Card payments: a checkout the user completes on the provider's hosted page (Stripe Checkout, or the
 * offline sandbox's test-card page on this server), after which the wallet is credited once. Chosen by
 * PAYMENTS (config.ts): `sandbox` (default) or `stripe`.
 */
export type CheckoutRequest = {
  /** Our checkout id: the ledger's idempotency key for its credit, and Stripe's client_reference_id. */
  sessionId: string;
  amountCents: number;
  currency: "usd";
  description: string;
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string | undefined;
};

export type CreatedCheckout = {
  /** The provider's own id of the session (Stripe's cs_...); null for the sandbox (ours is its id). */
  providerSessionId: string | null;
  /** Where the user pays. */
  url: string;
};

/** A completed payment the provider told us about (a verified webhook). */
export type CompletedPayment = {
  /** Our checkout id (client_reference_id / metadata). */
  sessionId: string;
  providerSessionId: string;
  amountCents: number;
  currency: string;
};

export type PaymentsProvider = {
  name: "sandbox" | "stripe";
  createCheckout(request: CheckoutRequest): Promise<CreatedCheckout>;
};
