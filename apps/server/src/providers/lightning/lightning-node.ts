/**
 * A lightning node that issues BOLT11 invoices for wallet top-ups. Chosen by LIGHTNING (config.ts): the
 * offline sandbox node (default; real invoices signed with its own key, paid from its sandbox wallet page)
 * or LND's REST API.
 */
export type CreatedInvoice = {
  paymentRequest: string;
  /** Hex SHA-256 of the preimage. */
  paymentHash: string;
  expiresAt: Date;
};

export type LightningNode = {
  name: "sandbox" | "lnd";
  createInvoice(input: {
    amountSats: number;
    description: string;
    expirySeconds: number;
  }): Promise<CreatedInvoice>;
  /**
   * Pays a BOLT11 invoice from the platform's node (withdrawals). Paying the same invoice again answers its
   * first outcome (a node pays a payment hash once). `failed` is final: nothing left the node.
   */
  payInvoice(paymentRequest: string): Promise<OutgoingPayment>;
};

export type OutgoingPayment =
  | { status: "paid"; preimage: string; feeSats: number }
  | { status: "failed"; reason: string };
