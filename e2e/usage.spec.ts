import type { Page } from "@playwright/test";
import { checkA11y, DEMO, expect, signInAs, test, within } from "./helpers.ts";

// Usage debits (issue 21): the demo organisation's owner tops up the wallet by card, texts the Front Desk
// agent from the phone simulator, and the periodic usage sweep (USAGE_DEBIT_INTERVAL_SECONDS, a few seconds
// on the e2e server) charges the replies to the wallet: the Wallet shows the usage debit and a lower
// balance, and Billing shows the period's usage with the texts counted. Other journeys text the same
// organisation meanwhile, so only this journey's own deltas are asserted.

const dollars = (text: string | null) => Number((text ?? "").replace(/[^0-9.-]/g, ""));

async function sentTexts(page: Page): Promise<number> {
  await page.goto("/app/billing");
  const card = page.getByTestId("usage-card");
  await expect(card.getByText(/Priced by the \w+ plan's tiers/)).toBeVisible({ timeout: within(15_000) });
  const row = page.getByTestId("usage-quantity-outbound-message");
  return (await row.count()) > 0 ? dollars(await row.textContent()) : 0;
}

/** What Billing says was charged to the wallet for usage this period, in dollars (on the Billing page). */
async function debited(page: Page): Promise<number> {
  const figure = page.getByTestId("usage-debited");
  return (await figure.count()) > 0 ? dollars(await figure.textContent()) : 0;
}

test("texts to the agent are charged to the wallet by the usage sweep, and Billing shows the usage", async ({
  page,
  problems,
}) => {
  test.setTimeout(within(120_000));
  problems.allow(/^answer 402 POST \/sandbox\/checkout\//);
  await signInAs(page, DEMO.owner, "/app/billing");
  const before = await sentTexts(page);
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

  // Two texts from a handset of this journey's own; the agent answers each.
  const digits = String(Math.floor(1000 + Math.random() * 8999));
  await page.goto("/app/developers");
  const simulator = page.getByLabel("Phone simulator");
  await simulator.getByLabel("Handset number").fill(`+1503557${digits}`);
  await simulator.getByRole("button", { name: "Use number" }).click();
  await expect(simulator.getByText("No messages on this handset yet.")).toBeVisible();
  await expect(simulator.getByRole("combobox", { name: "Text to" })).toHaveValue(/Front Desk/);
  for (const [i, text] of ["What are your opening hours?", "Do you see children?"].entries()) {
    await simulator.getByRole("textbox", { name: "Text message from the handset" }).fill(text);
    await simulator.getByRole("button", { name: "Send text" }).click();
    await expect(simulator.locator('[data-direction="outbound"]')).toHaveCount(i + 1, {
      timeout: within(15_000),
    });
  }

  // The sweep charges the replies: what Billing says was charged for usage grows (a figure other journeys
  // cannot lower, unlike the balance, which their top-ups raise meanwhile), and the Wallet lists the debit.
  await expect
    .poll(
      async () => {
        await sentTexts(page);
        return debited(page);
      },
      { timeout: within(45_000), intervals: [2_000] },
    )
    .toBeGreaterThan(debitedBefore);
  await page.goto("/app/wallet");
  await expect(balance).toBeVisible();
  const debit = page
    .getByTestId("wallet-transaction")
    .filter({ hasText: /Usage: .*texts? sent/ })
    .first();
  await expect(debit).toBeVisible();
  await expect(debit).toContainText(/-\$\d+\.\d\d/);

  // Billing: this period's texts include these two, and the wallet was charged for usage.
  expect(await sentTexts(page)).toBeGreaterThanOrEqual(before + 2);
  await expect(page.getByTestId("usage-row-outbound-message")).toContainText("Texts sent");
  expect(dollars(await page.getByTestId("usage-debited").textContent())).toBeGreaterThan(0);
  expect(dollars(await page.getByTestId("usage-total").textContent())).toBeGreaterThan(0);
  await checkA11y(page, "the Billing page's usage");
});
