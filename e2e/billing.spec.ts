import { checkA11y, expect, signUpOwner, test, within } from "./helpers.ts";

// Plans and subscriptions (issue 21): a new organisation's owner chooses the Pro plan, pays on the sandbox's
// hosted checkout page (a declined test card first, then 4242…), comes back to paymentSuccess, sees the plan
// and premium on in Billing, then cancels: premium turns off at once. At 550 px wide.

test.use({ viewport: { width: 550, height: 900 } });

/** A monthly plan started today (UTC): "Nov 29 – Dec 28", its last day and its renewal day in full. */
function periodFromToday() {
  const now = new Date();
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const lastOfNext = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0)).getUTCDate();
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, Math.min(now.getUTCDate(), lastOfNext));
  const last = end - 86_400_000;
  const fmt = (ms: number, month: "short" | "long") =>
    new Date(ms).toLocaleDateString("en-US", {
      month,
      day: "numeric",
      ...(month === "long" ? { year: "numeric" } : {}),
      timeZone: "UTC",
    });
  return {
    short: `${fmt(start, "short")} – ${fmt(last, "short")}`,
    lastDay: fmt(last, "long"),
    renewal: fmt(end, "long"),
  };
}

test("subscribe to Pro through the sandbox checkout (declined, then 4242), see premium on, cancel", async ({
  page,
  problems,
}) => {
  test.setTimeout(within(90_000));
  // The sandbox checkout answers a declined card with 402, as a card network refuses it.
  problems.allow(/^answer 402 POST \/sandbox\/subscribe\//);
  await signUpOwner(page, "Plans Works", "plans");
  await page.goto("/app/billing");
  await expect(page.getByRole("heading", { name: "Billing", level: 1 })).toBeVisible();
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free");
  await expect(page.getByTestId("premium-badge")).toHaveText("Premium off");
  await expect(page.getByTestId("plan-Pro")).toContainText("$49.00 / month");
  await checkA11y(page, "the Billing page");

  // The plan's items and pricing tiers.
  await page.getByTestId("plan-Pro").getByRole("button", { name: "Details" }).click();
  const details = page.getByRole("dialog", { name: "Plan details" });
  await expect(details.getByText("Call minutes")).toBeVisible();
  await expect(details.getByText("501–5,000: $0.12 per minute")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(details).toBeHidden();

  await page.getByRole("button", { name: "Choose a plan" }).click();
  const dialog = page.getByRole("dialog", { name: "Choose a plan" });
  await expect(page).toHaveURL(/selectPlan=true/);
  await dialog.getByRole("button", { name: "Subscribe to Pro" }).click();

  await expect(page).toHaveURL(/\/sandbox\/subscribe\/sub_cs_sandbox_/);
  await expect(page.getByText("$49.00").first()).toBeVisible();
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Pat Plans");
  await page.getByRole("button", { name: "Subscribe for $49.00 per month" }).click();
  await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
  await checkA11y(page, "the sandbox subscription checkout");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Subscribe for $49.00 per month" }).click();

  await expect(page).toHaveURL(/\/app\/paymentSuccess\?planCheckout=sub_cs_sandbox_/);
  await expect(page.getByRole("heading", { name: "Subscription started" })).toBeVisible();
  await expect(page.getByText("You are on the Pro plan. Premium is on.")).toBeVisible();
  await page.getByRole("link", { name: "Go to Billing" }).click();
  await expect(page.getByTestId("current-plan-name")).toHaveText("Pro");
  await expect(page.getByTestId("premium-badge")).toHaveText("Premium on");
  await expect(page.getByText(/\$49\.00 per month, paid by card for .*; renews on/)).toBeVisible();

  // One period everywhere (issue 32): the usage card's period is the plan's paid period, and the
  // subscription says it is paid through that period's last day, renewing the day after.
  const { short, lastDay, renewal } = periodFromToday();
  await expect(page.getByTestId("subscription-period")).toContainText(`paid by card for ${short}`);
  await expect(page.getByTestId("usage-card")).toContainText(short);
  await expect(page.getByTestId("usage-card")).toContainText(
    "Your plan's own price is paid by card and is not part of this total.",
  );
  await page.getByRole("button", { name: "Manage subscription" }).click();
  await expect(page.getByTestId("subscription-paid-through")).toHaveText(
    `Pro: $49.00 per month, paid by card for ${short}, through ${lastDay}; renews on ${renewal}.`,
  );
  await page.keyboard.press("Escape");
  // The wallet lists the plan with its real amount, paid by card.
  await page.goto("/app/wallet");
  const planRow = page.getByTestId("wallet-transaction").filter({ hasText: "Pro plan, 1 month" });
  await expect(planRow).toContainText("-$49.00");
  await expect(planRow.getByTestId("paid-by-card")).toHaveText("paid by card, not from the wallet");
  await page.goto("/app/billing");

  // Cancel: premium off at once.
  await page.getByRole("button", { name: "Manage subscription" }).click();
  const subscription = page.getByRole("dialog", { name: "Subscription" });
  await subscription.getByLabel("Details").fill("Only trying it out");
  await subscription.getByRole("button", { name: "Cancel plan" }).click();
  await expect(subscription.getByText("Your plan is cancelled.", { exact: false })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free");
  await expect(page.getByTestId("premium-badge")).toHaveText("Premium off");
});
