import { checkA11y, DEMO, DEMO_NAMES, expect, signInAs, test, within } from "./helpers.ts";

// Payment links and Stripe Connect payouts (issue 21), on the demo organisation (other journeys use it
// too, and usage debits move its balance: each amount is checked as its own transaction). The owner makes a link; a signed-out visitor opens
// its public page and pays it with the sandbox card 4242…; the owner's wallet shows the credit. Then the
// owner connects a bank account through the sandbox's Stripe Connect onboarding and withdraws to it.

const cents = (text: string | null) => Math.round(Number((text ?? "").replace(/[$,]/g, "")) * 100);

test("a signed-out visitor pays a payment link; the owner withdraws to a bank account (Stripe)", async ({
  page,
  browser,
}) => {
  test.setTimeout(within(120_000));
  await signInAs(page, DEMO.owner, "/app/wallet");
  await expect(page.getByTestId("wallet-balance")).toBeVisible();

  // The owner makes a link of a fixed $12.
  const slug = `e2e-${Date.now().toString(36)}`;
  const links = page.getByTestId("payment-links");
  await links.getByLabel("Slug").fill(slug);
  await links.getByLabel("Title").fill("Cleaning deposit");
  await links.getByLabel("Amount (USD)").fill("12");
  await links.getByRole("button", { name: "Create link" }).click();
  const row = links.getByTestId("payment-link-row").filter({ hasText: "Cleaning deposit" });
  await expect(row).toContainText("$12.00");
  await expect(row).toContainText("Active");
  const href = (await row.getByRole("link", { name: slug }).getAttribute("href")) ?? "";
  expect(href).toContain(`/pay?slug=${slug}`);

  // A visitor without an account pays it.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(new URL(href).pathname + new URL(href).search);
  await expect(visitor.getByRole("heading", { name: "Cleaning deposit" })).toBeVisible();
  await expect(visitor.getByTestId("pay-org")).toHaveText(DEMO_NAMES.organization);
  await expect(visitor.getByTestId("pay-amount")).toHaveText("$12.00");
  await checkA11y(visitor, "the payment link's page");
  await visitor.getByRole("button", { name: "Pay by card" }).click();
  await expect(visitor).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await visitor.getByLabel("Card number").fill("4242 4242 4242 4242");
  await visitor.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await visitor.getByLabel("CVC").fill("123");
  await visitor.getByLabel("Name on card").fill("Pat Visitor");
  await visitor.getByRole("button", { name: "Pay $12.00" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/pay\\?slug=${slug}&paid=cs_sandbox_`));
  await expect(visitor.getByText(`Your payment to ${DEMO_NAMES.organization} was received.`)).toBeVisible();
  await visitorContext.close();

  // The owner's wallet shows the credit.
  await page.reload();
  // (Checked as its own transaction: usage debits and other journeys move the balance meanwhile.)
  const credit = page
    .getByTestId("wallet-transaction")
    .filter({ hasText: "Payment link paid (Visa •••• 4242)" })
    .first();
  await expect(credit).toContainText("+$12.00");
  await expect(row).toContainText("1 · $12.00");

  // Withdraw to a bank account: connect it first through the sandbox's Stripe onboarding.
  await page.getByRole("button", { name: "Withdraw", exact: true }).first().click();
  const dialog = page.getByRole("dialog", { name: "Withdraw" });
  await dialog.getByText("Bank account (Stripe)", { exact: true }).click();
  const connect = dialog.getByRole("button", { name: "Connect a bank account" });
  const amount = dialog.getByLabel("Amount (USD)");
  await expect(connect.or(amount)).toBeVisible();
  if (await connect.isVisible()) {
    await connect.click();
    await expect(page).toHaveURL(/\/sandbox\/stripe\/connect\/onb_/);
    await expect(page.getByRole("heading", { name: "Connect a bank account" })).toBeVisible();
    await page.getByRole("button", { name: "Agree and submit" }).click();
    await expect(page).toHaveURL(/\/stripePayoutConnectSuccess$/);
    await expect(page.getByRole("heading", { name: "Bank account connected" })).toBeVisible();
    await page.getByRole("button", { name: "Withdraw to the bank" }).click();
  }
  await expect(dialog.getByText("Bank account connected")).toBeVisible();
  expect(cents(await dialog.getByTestId("withdraw-available").textContent())).toBeGreaterThanOrEqual(500);
  await dialog.getByLabel("Amount (USD)").fill("5");
  await dialog.getByRole("button", { name: "Withdraw", exact: true }).click();
  const status = dialog.getByTestId("withdrawal-status");
  await expect(status).toHaveText("Paid out", { timeout: within(30_000) });
  await expect(dialog.getByTestId("withdrawal-progress")).toContainText("$5.00 to Bank (Stripe)");
  await page.keyboard.press("Escape");
  await page.goto("/app/wallet");
  await expect(page.getByTestId("wallet-transaction").filter({ hasText: "-$5.00" }).first()).toBeVisible();
});
