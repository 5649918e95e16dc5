import Stripe from "stripe";

/**
 * Stripe's API client as every Stripe provider here uses it (Checkout, subscriptions, Connect): two
 * retries, 20 s timeout, and `apiUrl` to point it at another host (stripe-mock, a test double).
 */
export function stripeClient(options: { secretKey: string; apiUrl?: string | undefined }): Stripe {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  return new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
          protocol: api.protocol === "http:" ? "http" : "https",
        }
      : {}),
  });
}
