import type { PayoutsProvider } from "./payouts-provider.ts";

/** Item states after which the money did not reach the receiver (and will not). */
const FAILED = new Set(["FAILED", "RETURNED", "BLOCKED", "REFUNDED", "REVERSED", "DENIED", "CANCELED"]);

/**
 * PayPal's Payouts REST API (PAYOUTS=paypal): an OAuth2 client-credentials token, POST
 * /v1/payments/payouts with one item (recipient_wallet PAYPAL or VENMO), then GET
 * /v1/payments/payouts/{payout_batch_id} until the item is SUCCESS or failed. PAYPAL_API_URL chooses the
 * sandbox (api-m.sandbox.paypal.com, the default) or live (api-m.paypal.com).
 */
export function paypalPayouts(options: {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  fetch?: typeof fetch;
}): PayoutsProvider {
  const doFetch = options.fetch ?? fetch;
  let token: { value: string; until: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const response = await doFetch(`${options.apiUrl}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`PayPal token: ${response.status}`);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, until: Date.now() + (body.expires_in - 60) * 1000 };
    return token.value;
  }

  return {
    name: "paypal",
    checkAfterMs: 60_000,
    async send(request) {
      const response = await doFetch(`${options.apiUrl}/v1/payments/payouts`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${await accessToken()}`,
          "content-type": "application/json",
          "paypal-request-id": request.senderBatchId,
        },
        body: JSON.stringify({
          sender_batch_header: {
            sender_batch_id: request.senderBatchId,
            email_subject: "You have a payout from Switchboard",
          },
          items: [
            {
              recipient_type: request.recipientType,
              recipient_wallet: request.wallet,
              receiver: request.receiver,
              amount: { value: (request.amountCents / 100).toFixed(2), currency: "USD" },
              note: request.note,
              sender_item_id: request.senderBatchId,
            },
          ],
        }),
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await response.json().catch(() => ({}))) as {
        batch_header?: { payout_batch_id?: string };
        name?: string;
        message?: string;
      };
      if (response.status === 201 && body.batch_header?.payout_batch_id)
        return { status: "sent", batchId: body.batch_header.payout_batch_id };
      // 4xx other than auth and rate limits: PayPal refused this payout (nothing was sent).
      if (
        response.status >= 400 &&
        response.status < 500 &&
        response.status !== 401 &&
        response.status !== 429
      )
        return { status: "refused", reason: `${body.name ?? response.status}: ${body.message ?? "refused"}` };
      throw new Error(`PayPal payouts answered ${response.status}`);
    },
    async check({ batchId }) {
      const response = await doFetch(`${options.apiUrl}/v1/payments/payouts/${encodeURIComponent(batchId)}`, {
        headers: { authorization: `Bearer ${await accessToken()}` },
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) throw new Error(`PayPal payout ${batchId}: ${response.status}`);
      const body = (await response.json()) as {
        batch_header?: { batch_status?: string };
        items?: { transaction_status?: string; errors?: { name?: string; message?: string } }[];
      };
      const item = body.items?.[0];
      const state = item?.transaction_status ?? body.batch_header?.batch_status ?? "PENDING";
      if (state === "SUCCESS") return { status: "success" };
      if (FAILED.has(state))
        return {
          status: "failed",
          reason: item?.errors ? `${item.errors.name}: ${item.errors.message}` : `PayPal: ${state}`,
        };
      return { status: "pending" };
    },
  };
}
