import type { PaymentsProvider } from "./payments-provider.ts";

/**
 * The offline sandbox (PAYMENTS=sandbox, the default): like Stripe's test mode, the checkout is a hosted page
 * — here on this server, /sandbox/checkout/{id} — where the user types a test card (test-cards.ts). The
 * wallet module serves the page and completes the checkout when the card is accepted.
 */
export function sandboxPayments(publicUrl: string): PaymentsProvider {
  return {
    name: "sandbox",
    async createCheckout(request) {
      return {
        providerSessionId: null,
        url: `${publicUrl}/sandbox/checkout/${encodeURIComponent(request.sessionId)}`,
      };
    },
  };
}
