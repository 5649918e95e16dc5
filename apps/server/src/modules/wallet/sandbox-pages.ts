import { escapeHtml } from "../../http/html.ts";
import type { CheckoutRow } from "./wallet.repository.ts";

const usd = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f6f9fc;margin:0;color:#1a1f36}
main{max-width:440px;margin:0 auto;padding:24px 16px}
.banner{background:#ffde92;color:#5b4200;font-size:13px;font-weight:600;text-align:center;padding:6px}
.card{background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:20px;margin:0 0 4px}.amount{font-size:32px;font-weight:700;margin:8px 0 16px}
label{display:block;font-weight:600;font-size:14px;margin:14px 0 4px}
input,textarea{width:100%;box-sizing:border-box;padding:10px;border:1px solid #8792a2;border-radius:6px;font-size:16px;font-family:inherit}
textarea{font-family:ui-monospace,monospace;font-size:13px;min-height:120px;word-break:break-all}
.row{display:flex;gap:12px}.row>div{flex:1}
button{width:100%;padding:12px;border-radius:6px;font-size:16px;cursor:pointer;border:0;margin-top:20px}
.pay{background:#635bff;color:#fff}.cancel{background:none;color:#635bff;margin-top:8px}
.error{background:#fdecea;color:#8a1c13;border-radius:6px;padding:10px;margin-top:14px}
.ok{background:#e6f6ec;color:#0d5e2c;border-radius:6px;padding:10px;margin-top:14px}
.hint{font-size:13px;color:#4f566b;line-height:1.5;margin-top:16px}
code{font-family:ui-monospace,monospace;word-break:break-all;font-size:13px}
.preimage{display:block;background:#f0f3f7;border-radius:6px;padding:10px;margin-top:6px;user-select:all}
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="banner">SANDBOX — no real money moves</div>
<main>${body}</main>
</body>
</html>`;
}

/** The sandbox's hosted checkout page (like Stripe Checkout in test mode). */
export function sandboxCheckoutPage(
  session: CheckoutRow,
  form: { cardNumber?: string; expiry?: string; cvc?: string; name?: string; error?: string | null } = {},
): string {
  const action = `/sandbox/checkout/${encodeURIComponent(session.id)}`;
  if (session.status !== "open") {
    const done = session.status === "complete";
    return page(
      done ? "Payment complete" : "Checkout cancelled",
      `<div class="card"><h1>${done ? "This checkout is complete" : "This checkout was cancelled"}</h1>
<p>${done ? `${usd(session.amountCents)} was paid.` : "Nothing was charged."}</p>
<p><a href="${escapeHtml(done ? session.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", session.id) : session.cancelUrl)}">Return to Switchboard</a></p></div>`,
    );
  }
  const error = form.error ?? null;
  return page(
    "Pay Switchboard (sandbox checkout)",
    `<div class="card">
<h1>Switchboard wallet credit</h1>
<div class="amount">${usd(session.amountCents)}</div>
<form method="post" action="${action}" novalidate>
<label for="cardNumber">Card number</label>
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" value="${escapeHtml(form.cardNumber ?? "")}"${error ? ' aria-describedby="card-error" aria-invalid="true"' : ""}>
<div class="row"><div>
<label for="expiry">Expiry (MM / YY)</label>
<input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" value="${escapeHtml(form.expiry ?? "")}">
</div><div>
<label for="cvc">CVC</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="CVC" value="${escapeHtml(form.cvc ?? "")}">
</div></div>
<label for="name">Name on card</label>
<input id="name" name="name" autocomplete="cc-name" value="${escapeHtml(form.name ?? "")}">
${error ? `<div class="error" id="card-error" role="alert">${escapeHtml(error)}</div>` : ""}
<button class="pay" type="submit" name="action" value="pay">Pay ${usd(session.amountCents)}</button>
<button class="cancel" type="submit" name="action" value="cancel">Cancel and return to Switchboard</button>
</form>
<p class="hint">Sandbox test cards: <code>4242 4242 4242 4242</code> succeeds; <code>4000 0000 0000 0002</code> is declined; <code>4000 0000 0000 9995</code> has insufficient funds. Use any future expiry and any 3-digit CVC.</p>
</div>`,
  );
}

/** The sandbox lightning node's wallet page: pay an invoice of this server's sandbox node, see the preimage;
 * and receive: make an invoice of the sandbox wallet to withdraw to, and see the payments it received. */
export function sandboxWalletPage(input: {
  invoice: string;
  result?:
    | { ok: true; preimage: string; amountSats: number; alreadyPaid: boolean }
    | { ok: false; message: string };
  received?: readonly {
    paymentRequest: string;
    amountSats: number;
    settledAt: Date | null;
    createdAt: Date;
  }[];
  newInvoice?: string;
  receiveError?: string;
}): string {
  const result = input.result;
  const outcome = !result
    ? ""
    : result.ok
      ? `<div class="ok" role="status">${result.alreadyPaid ? "This invoice was already paid" : `Paid ${result.amountSats.toLocaleString("en-US")} sats`}. The payment's preimage (the proof of payment):
<code class="preimage" id="preimage" data-testid="preimage">${escapeHtml(result.preimage)}</code></div>
<p class="hint">Copy the preimage and paste it in Switchboard's Add funds window to prove the payment.</p>`
      : `<div class="error" role="alert">${escapeHtml(result.message)}</div>`;
  const received = input.received ?? [];
  const receivedTotal = received.reduce((sum, r) => sum + (r.settledAt ? r.amountSats : 0), 0);
  const rows = received
    .map(
      (r) => `<tr data-testid="received-row"><td>${r.amountSats.toLocaleString("en-US")} sats</td>
<td>${r.settledAt ? `<strong class="paid">Received</strong> ${escapeHtml(r.settledAt.toISOString().replace("T", " ").slice(0, 19))} UTC` : "Waiting for payment"}</td>
<td><code title="${escapeHtml(r.paymentRequest)}">${escapeHtml(r.paymentRequest.slice(0, 24))}…</code></td></tr>`,
    )
    .join("\n");
  return page(
    "Sandbox lightning wallet",
    `<div class="card">
<h1>Sandbox lightning wallet</h1>
<p class="hint">Pays invoices of this server's sandbox lightning node (regtest, <code>lnbcrt…</code>) with sandbox bitcoin, and shows the preimage a real wallet would receive.</p>
<form method="post" action="/sandbox/lightning/wallet">
<label for="invoice">Lightning invoice</label>
<textarea id="invoice" name="invoice" spellcheck="false">${escapeHtml(input.invoice)}</textarea>
<button class="pay" type="submit">Pay invoice</button>
</form>
${outcome}
</div>
<div class="card" style="margin-top:16px">
<h1>Receive</h1>
<p class="hint">Make an invoice of this sandbox wallet, then paste it in Switchboard's Withdraw window: the platform's node pays it and the payment shows below.</p>
<form method="post" action="/sandbox/lightning/wallet/receive">
<label for="amountSats">Amount (sats)</label>
<input id="amountSats" name="amountSats" inputmode="numeric" value="">
<button class="pay" type="submit">Create invoice</button>
</form>
${input.receiveError ? `<div class="error" role="alert">${escapeHtml(input.receiveError)}</div>` : ""}
${input.newInvoice ? `<div class="ok" role="status">Invoice to be paid:<code class="preimage" id="new-invoice" data-testid="new-invoice">${escapeHtml(input.newInvoice)}</code></div>` : ""}
<h2 style="font-size:16px;margin:20px 0 6px">Received payments</h2>
<p class="hint" data-testid="received-total">Received in total: ${receivedTotal.toLocaleString("en-US")} sats</p>
${rows ? `<table style="width:100%;font-size:13px;border-collapse:collapse"><tbody>${rows}</tbody></table>` : '<p class="hint">No invoices yet.</p>'}
</div>`,
  );
}

/** The payouts sandbox's page of one payout batch (like PayPal's sandbox activity). */
export function sandboxPayoutPage(payout: {
  method: string;
  address: string;
  amountCents: number;
  status: "pending" | "settled" | "released";
  failureReason: string | null;
  externalId: string | null;
  createdAt: number;
}): string {
  const state =
    payout.status === "settled"
      ? '<div class="ok" role="status" data-testid="payout-status">SUCCESS: the receiver was paid.</div>'
      : payout.status === "released"
        ? `<div class="error" role="alert" data-testid="payout-status">FAILED: ${escapeHtml(payout.failureReason ?? "")}</div>`
        : '<div class="hint" role="status" data-testid="payout-status">PENDING: the payout is being processed.</div>';
  return page(
    "Sandbox payouts",
    `<div class="card">
<h1>${payout.method === "venmo" ? "Venmo" : "PayPal"} payout (sandbox)</h1>
<div class="amount">${usd(payout.amountCents)}</div>
<p>To <strong>${escapeHtml(payout.address)}</strong></p>
<p class="hint">Batch <code>${escapeHtml(payout.externalId ?? "")}</code>, sent ${escapeHtml(new Date(payout.createdAt).toISOString().replace("T", " ").slice(0, 19))} UTC</p>
${state}
<p class="hint">Sandbox payouts succeed after a few seconds; receivers at a <code>.invalid</code> domain fail (RECEIVER_UNREGISTERED) and the funds return to the wallet.</p>
</div>`,
  );
}

/** The payouts sandbox's stand-in for Stripe's hosted Connect onboarding: add a test bank account. */
export function sandboxConnectPage(
  onboarding: { onboardingId: string; accountId: string; payoutsEnabled: boolean },
  form: { routingNumber?: string; accountNumber?: string; error?: string | null } = {},
): string {
  const action = `/sandbox/stripe/connect/${encodeURIComponent(onboarding.onboardingId)}`;
  const error = form.error ?? null;
  return page(
    "Connect a bank account (sandbox Stripe Connect)",
    `<div class="card">
<h1>Connect a bank account</h1>
<p>Stripe Connect onboarding for <code>${escapeHtml(onboarding.accountId)}</code>${onboarding.payoutsEnabled ? " (payouts already enabled)" : ""}.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="action" value="complete">
<label for="routingNumber">Routing number</label>
<input id="routingNumber" name="routingNumber" inputmode="numeric" autocomplete="off" value="${escapeHtml(form.routingNumber ?? "110000000")}">
<label for="accountNumber">Account number</label>
<input id="accountNumber" name="accountNumber" inputmode="numeric" autocomplete="off" value="${escapeHtml(form.accountNumber ?? "000123456789")}">
${error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : ""}
<button class="pay" type="submit">Agree and submit</button>
</form>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="action" value="leave">
<button class="cancel" type="submit">Return without connecting</button>
</form>
<p class="hint">Test bank account: routing number 110000000, account number 000123456789 (Stripe's test
account). An account number ending in 0002 is refused.</p>
</div>`,
  );
}
