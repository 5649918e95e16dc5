import { escapeHtml } from "../../http/html.ts";
import type { PlanRow, SubscriptionCheckoutRow, SubscriptionRow } from "./billing.repository.ts";

const usd = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

const day = (date: Date) =>
  date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f6f9fc;margin:0;color:#1a1f36}
main{max-width:440px;margin:0 auto;padding:24px 16px}
.banner{background:#ffde92;color:#5b4200;font-size:13px;font-weight:600;text-align:center;padding:6px}
.card{background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:20px;margin:0 0 4px}.amount{font-size:32px;font-weight:700;margin:8px 0 16px}
.amount small{font-size:16px;font-weight:400;color:#4f566b}
label{display:block;font-weight:600;font-size:14px;margin:14px 0 4px}
input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #8792a2;border-radius:6px;font-size:16px;font-family:inherit}
.row{display:flex;gap:12px}.row>div{flex:1}
button{width:100%;padding:12px;border-radius:6px;font-size:16px;cursor:pointer;border:0;margin-top:20px}
.pay{background:#635bff;color:#fff}.cancel{background:none;color:#635bff;margin-top:8px}
.danger{background:#fff;color:#b3261e;border:1px solid #b3261e}
.error{background:#fdecea;color:#8a1c13;border-radius:6px;padding:10px;margin-top:14px}
.hint{font-size:13px;color:#4f566b;line-height:1.5;margin-top:16px}
code{font-family:ui-monospace,monospace;font-size:13px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;margin:16px 0}dt{color:#4f566b}dd{margin:0;font-weight:600}
`;

function page(title: string, body: string): string {
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

/** The sandbox's hosted checkout page of a subscription (like Stripe Checkout in test mode). */
export function sandboxSubscribePage(
  checkout: SubscriptionCheckoutRow,
  plan: PlanRow,
  form: { cardNumber?: string; expiry?: string; cvc?: string; name?: string; error?: string | null } = {},
): string {
  const action = `/sandbox/subscribe/${encodeURIComponent(checkout.id)}`;
  if (checkout.status !== "open") {
    const done = checkout.status === "complete";
    const back = done
      ? checkout.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", checkout.id)
      : checkout.cancelUrl;
    return page(
      done ? "Subscription started" : "Checkout cancelled",
      `<div class="card"><h1>${done ? "This subscription is paid" : "This checkout was cancelled"}</h1>
<p>${done ? `${escapeHtml(plan.name)}: ${usd(checkout.amountCents)} per ${checkout.term} was paid.` : "Nothing was charged."}</p>
<p><a href="${escapeHtml(back)}">Return to Switchboard</a></p></div>`,
    );
  }
  const error = form.error ?? null;
  return page(
    "Subscribe to Switchboard (sandbox checkout)",
    `<div class="card">
<h1>Switchboard ${escapeHtml(plan.name)}</h1>
<div class="amount">${usd(checkout.amountCents)} <small>per ${checkout.term}</small></div>
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
<button class="pay" type="submit" name="action" value="pay">Subscribe for ${usd(checkout.amountCents)} per ${checkout.term}</button>
<button class="cancel" type="submit" name="action" value="cancel">Cancel and return to Switchboard</button>
</form>
<p class="hint">Sandbox test cards: <code>4242 4242 4242 4242</code> succeeds; <code>4000 0000 0000 0002</code> is declined; <code>4000 0000 0000 9995</code> has insufficient funds. Use any future expiry and any 3-digit CVC.</p>
</div>`,
  );
}

/** The sandbox's customer portal (like Stripe's Billing Portal): the plan, cancel, the way back. */
export function sandboxPortalPage(input: {
  id: string;
  returnUrl: string;
  orgName: string;
  subscription: SubscriptionRow | null;
  plan: PlanRow | null;
}): string {
  const { subscription, plan } = input;
  const body = subscription
    ? `<dl><dt>Plan</dt><dd>${escapeHtml(plan?.name ?? "")}</dd>
<dt>Price</dt><dd>${usd(subscription.amountCents)} per ${subscription.term}</dd>
<dt>Current period</dt><dd>${day(subscription.currentPeriodStart)} – ${day(subscription.currentPeriodEnd)}</dd></dl>
<form method="post" action="/sandbox/billingPortal/${encodeURIComponent(input.id)}">
<button class="danger" type="submit" name="action" value="cancel">Cancel plan</button>
</form>
<p class="hint">Cancelling ends the plan now (no refund for the rest of the period) and turns premium off.</p>`
    : `<p>No active plan. Choose one on Switchboard's Billing page.</p>`;
  return page(
    "Billing portal (sandbox)",
    `<div class="card">
<h1>Billing portal</h1>
<p class="hint">${escapeHtml(input.orgName)}</p>
${body}
<p><a href="${escapeHtml(input.returnUrl)}">Return to Switchboard</a></p>
</div>`,
  );
}
