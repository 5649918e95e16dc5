/**
 * PayPal and Venmo withdrawals: a payout batch of one item, sent once (our sender batch id is the
 * withdrawal's, so a retried send is refused as a duplicate rather than paid twice), then checked until it
 * succeeds or fails. Chosen by PAYOUTS (config.ts): the offline sandbox (default) or PayPal's Payouts API.
 */
export type PayoutRequest = {
  /** Ours, unique per withdrawal: PayPal's sender_batch_id. */
  senderBatchId: string;
  wallet: "PAYPAL" | "VENMO";
  recipientType: "EMAIL" | "PHONE";
  receiver: string;
  amountCents: number;
  note: string;
};

export type SentPayout = { status: "sent"; batchId: string } | { status: "refused"; reason: string };

export type PayoutState =
  | { status: "pending" }
  | { status: "success" }
  | { status: "failed"; reason: string };

export type PayoutsProvider = {
  name: "sandbox" | "paypal";
  /** How long to wait before asking about a sent payout (and between asks). */
  checkAfterMs: number;
  send(request: PayoutRequest): Promise<SentPayout>;
  check(payout: { batchId: string; receiver: string; sentAt: Date }): Promise<PayoutState>;
};
