const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** Cents as dollars: 2500 -> $25.00; negative amounts keep their sign. */
export const formatCents = (cents: number) => usdFormat.format(cents / 100);

export const formatSats = (sats: number) => `${Math.round(sats).toLocaleString("en-US")} sats`;

const KIND_LABELS: Record<string, string> = {
  "topup.card": "Card top-up",
  "topup.lightning": "Lightning top-up",
  usage: "Usage",
  "usage.owed": "Usage owed",
  subscription: "Subscription",
  number: "Phone number",
  refund: "Refund",
  reward: "Reward",
  "withdrawal.hold": "Withdrawal (on hold)",
  "withdrawal.settle": "Withdrawal paid out",
  "withdrawal.release": "Withdrawal failed: funds returned",
};

export const kindLabel = (kind: string) => KIND_LABELS[kind] ?? kind;
