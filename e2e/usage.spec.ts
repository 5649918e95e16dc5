import type { Page } from "@playwright/test";
import { quietMicrophone } from "./fake-microphone.ts";
import { checkA11y, DEMO, expect, signInAs, test, within } from "./helpers.ts";

// Usage debits (issue 21): the demo organisation's owner tops up the wallet by card, calls the Front Desk
// agent from the sandbox phone, and the periodic usage sweep (USAGE_DEBIT_INTERVAL_SECONDS, a few seconds
// on the e2e server) charges the call's minute to the wallet: the Wallet shows the usage debit, and Billing
// shows the period's usage with the minute counted. Other journeys call and text the same organisation
// meanwhile, so only this journey's own deltas are asserted.

const dollars = (text: string | null) => Number((text ?? "").replace(/[^0-9.-]/g, ""));

test.use(quietMicrophone());

/** This period's call minutes, on the Billing page. */
async function callMinutes(page: Page): Promise<number> {
  await page.goto("/app/billing");
  const card = page.getByTestId("usage-card");
  await expect(card.getByText("Priced by the Pro plan's tiers")).toBeVisible({ timeout: within(15_000) });
  const row = page.getByTestId("usage-quantity-voice");
  return (await row.count()) > 0 ? dollars(await row.textContent()) : 0;
}

/** What Billing says was charged to the wallet for usage this period, in dollars (on the Billing page). */
async function debited(page: Page): Promise<number> {
  const figure = page.getByTestId("usage-debited");
  return (await figure.count()) > 0 ? dollars(await figure.textContent()) : 0;
}

test("a call to the agent is charged to the wallet by the usage sweep, and Billing shows the usage", async ({
  page,
  problems,
}) => {
  test.setTimeout(within(120_000));
  problems.allow(/^answer 402 POST \/sandbox\/checkout\//);
  await signInAs(page, DEMO.owner, "/app/billing");
  const before = await callMinutes(page);
  const debitedBefore = await debited(page);

  // A card top-up, so the debit has funds to come from.
  await page.goto("/app/wallet");
  await page.getByRole("button", { name: "Add funds" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add funds" });
  await dialog.getByLabel("Amount (USD)").fill("25");
  await dialog.getByRole("button", { name: "Continue to card payment" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Olive Owner");
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByText("$25.00 was added to your wallet.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the wallet" }).click();
  const balance = page.getByTestId("wallet-balance");
  await expect(balance).toBeVisible();
  const topUp = page.getByTestId("wallet-transaction").filter({ hasText: "Card top-up" }).first();
  await expect(topUp).toContainText("+$25.00");
  const afterTopUp = dollars(await balance.textContent());
  expect(afterTopUp).toBeGreaterThan(0);

  // A call to the Front Desk from the sandbox phone. The demo organisation is on Pro, whose included texts
  // and tokens its history has not used up this period, but whose 500 included call minutes it has: the
  // call's minute is charged.
  await page.goto("/app/developers");
  const phone = page.getByRole("region", { name: "Sandbox phone" }).or(page.getByLabel("Sandbox phone"));
  await phone.getByRole("textbox", { name: "Number to call" }).fill("+15035550123");
  await phone.getByRole("button", { name: "Dial" }).click();
  const panel = phone.getByTestId("call-panel");
  await panel.getByRole("button", { name: "Call", exact: true }).click();
  await expect(panel.getByTestId("call-status")).toHaveText("On the call", { timeout: within(20_000) });
  // The recording notice, then the greeting: a call of a few seconds (a call of 0 seconds costs no minute).
  await expect(panel.getByTestId("caption-agent").nth(1)).not.toBeEmpty({ timeout: within(20_000) });
  await panel.getByRole("button", { name: "Hang up" }).click();
  await expect(panel.getByTestId("call-status")).toHaveText("Call ended");

  // The sweep charges the call: what Billing says was charged for usage grows (a figure other journeys
  // cannot lower, unlike the balance, which their top-ups raise meanwhile), and the Wallet lists the debit.
  await expect
    .poll(
      async () => {
        await callMinutes(page);
        return debited(page);
      },
      { timeout: within(45_000), intervals: [2_000] },
    )
    .toBeGreaterThan(debitedBefore);
  await page.goto("/app/wallet");
  await expect(balance).toBeVisible();
  const debit = page
    .getByTestId("wallet-transaction")
    .filter({ hasText: /Usage: .*call minutes?/ })
    .first();
  await expect(debit).toBeVisible();
  await expect(debit).toContainText(/-\$\d+\.\d\d/);

  // Billing: this period's minutes include the call's, and the wallet was charged for usage.
  expect(await callMinutes(page)).toBeGreaterThanOrEqual(before + 1);
  await expect(page.getByTestId("usage-row-voice")).toContainText("Call minutes");
  expect(dollars(await page.getByTestId("usage-debited").textContent())).toBeGreaterThan(0);
  expect(dollars(await page.getByTestId("usage-total").textContent())).toBeGreaterThan(0);
  await checkA11y(page, "the Billing page's usage");
});
