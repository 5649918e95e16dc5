import type { LightningNode } from "./lightning-node.ts";

/**
 * LND's REST API (LIGHTNING=lnd): POST /v1/invoices with the invoice macaroon (hex, header
 * Grpc-Metadata-macaroon). LND answers r_hash (base64) and payment_request; the payer's wallet gives the
 * user the preimage, which proves the payment (its SHA-256 is r_hash). Withdrawals pay with
 * POST /v1/channels/transactions (synchronous: payment_preimage, or payment_error); LND pays a payment hash
 * once, so paying again answers the first payment's outcome.
 */
export function lndNode(options: { restUrl: string; macaroon: string; fetch?: typeof fetch }): LightningNode {
  const doFetch = options.fetch ?? fetch;
  return {
    name: "lnd",
    async createInvoice({ amountSats, description, expirySeconds }) {
      const response = await doFetch(`${options.restUrl}/v1/invoices`, {
        method: "POST",
        headers: { "content-type": "application/json", "grpc-metadata-macaroon": options.macaroon },
        body: JSON.stringify({ value: String(amountSats), memo: description, expiry: String(expirySeconds) }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok)
        throw new Error(`LND answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
      const body = (await response.json()) as { r_hash?: string; payment_request?: string };
      if (!body.r_hash || !body.payment_request) throw new Error("LND answered no invoice");
      return {
        paymentRequest: body.payment_request,
        paymentHash: Buffer.from(body.r_hash, "base64").toString("hex"),
        expiresAt: new Date(Date.now() + expirySeconds * 1000),
      };
    },
    async payInvoice(paymentRequest) {
      const response = await doFetch(`${options.restUrl}/v1/channels/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", "grpc-metadata-macaroon": options.macaroon },
        body: JSON.stringify({ payment_request: paymentRequest, fee_limit: { percent: "1" } }),
        signal: AbortSignal.timeout(60_000),
      });
      if (!response.ok)
        throw new Error(`LND answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
      const body = (await response.json()) as {
        payment_error?: string;
        payment_preimage?: string;
        payment_route?: { total_fees?: string };
      };
      if (body.payment_error?.includes("already paid") || body.payment_error?.includes("already succeeded"))
        throw new Error(`LND: ${body.payment_error} (the first payment's outcome is kept)`);
      if (body.payment_error) return { status: "failed", reason: body.payment_error };
      if (!body.payment_preimage) throw new Error("LND answered no preimage");
      return {
        status: "paid",
        preimage: Buffer.from(body.payment_preimage, "base64").toString("hex"),
        feeSats: Number(body.payment_route?.total_fees ?? 0),
      };
    },
  };
}
