import { checkA11y, expect, signUpOwner, test, within } from "./helpers.ts";

// The wallet (issue 21): a new organisation's owner tops up by card through the sandbox's hosted checkout
// (a declined test card first, then 4242…), comes back to the paymentSuccess page and sees the balance and
// the transaction; then tops up by lightning: the sandbox wallet pays the BOLT11 invoice and shows the
// preimage, which proves the payment in the Add funds window. At 550 px wide.

test.use({ viewport: { width: 550, height: 900 } });

test("top up the wallet by card (declined, then 4242) and by lightning (the preimage proves it)", async ({
  page,
  problems,
}) => {
  test.setTimeout(within(90_000));
  // The sandbox checkout answers a declined card with 402, as a card network refuses it.
  problems.allow(/^answer 402 POST \/sandbox\/checkout\//);
  await signUpOwner(page, "Wallet Works", "wallet");
  await page.goto("/app/wallet");
  await expect(page.getByRole("heading", { name: "Wallet", level: 1 })).toBeVisible();
  await expect(page.getByTestId("wallet-balance")).toHaveText("$0.00");
  await expect(page.getByText("No transactions yet.")).toBeVisible();

  // Card: the checkout page is the sandbox's, on this server.
  await page.getByRole("button", { name: "Add funds" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add funds" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/addFunds=true/);
  await dialog.getByLabel("Amount (USD)").fill("25");
  await dialog.getByRole("button", { name: "Continue to card payment" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await expect(page.getByText("$25.00").first()).toBeVisible();
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Rosa Owner");
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByRole("alert")).toHaveText("Your card was declined.");
  await checkA11y(page, "the sandbox checkout");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $25.00" }).click();

  await expect(page).toHaveURL(/\/app\/paymentSuccess\?session_id=cs_sandbox_/);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByText("$25.00 was added to your wallet.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the wallet" }).click();
  await expect(page.getByTestId("wallet-balance")).toHaveText("$25.00");
  const rows = page.getByTestId("wallet-transaction");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Card top-up");
  await expect(rows.first()).toContainText("+$25.00");
  await expect(rows.first()).toContainText("Visa •••• 4242");

  // Lightning: a real BOLT11 invoice, paid from the sandbox wallet page.
  await page.getByRole("button", { name: "Add funds" }).first().click();
  await dialog.getByRole("tab", { name: "Lightning" }).click();
  await dialog.getByLabel("Amount (USD)").fill("10");
  await dialog.getByRole("button", { name: "Create lightning invoice" }).click();
  const invoice = (await dialog.getByTestId("lightning-invoice").textContent())?.trim() ?? "";
  expect(invoice).toMatch(/^lnbcrt\d+n1[02-9ac-hj-np-z]+$/);
  const walletUrl = await dialog
    .getByRole("link", { name: "Pay with the sandbox wallet" })
    .getAttribute("href");
  expect(walletUrl).toBeTruthy();

  const sandboxWallet = await page.context().newPage();
  await sandboxWallet.goto(walletUrl as string);
  await expect(sandboxWallet.getByLabel("Lightning invoice")).toHaveValue(invoice);
  await sandboxWallet.getByRole("button", { name: "Pay invoice" }).click();
  const preimage = (await sandboxWallet.getByTestId("preimage").textContent())?.trim() ?? "";
  expect(preimage).toMatch(/^[0-9a-f]{64}$/);
  await checkA11y(sandboxWallet, "the sandbox lightning wallet");
  await sandboxWallet.close();

  // A wrong preimage proves nothing.
  problems.allow(/^answer 400 POST \/api\/v1\/provePendingInvoicePaid/);
  await dialog.getByLabel("Preimage").fill("00".repeat(32));
  await dialog.getByRole("button", { name: "Confirm payment" }).click();
  await expect(dialog.getByText("The preimage does not match the invoice's payment hash.")).toBeVisible();
  await dialog.getByLabel("Preimage").fill(preimage);
  await dialog.getByRole("button", { name: "Confirm payment" }).click();
  await expect(page.getByText("$10.00 was added to your wallet.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("wallet-balance")).toHaveText("$35.00");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Lightning top-up");
  await expect(rows.first()).toContainText("+$10.00");

  // A checkout cancelled on the card page returns to paymentCancel and charges nothing.
  await page.getByRole("button", { name: "Add funds" }).first().click();
  await dialog.getByLabel("Amount (USD)").fill("5");
  await dialog.getByRole("button", { name: "Continue to card payment" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await page.getByRole("button", { name: "Cancel and return to Switchboard" }).click();
  await expect(page).toHaveURL(/\/app\/paymentCancel$/);
  await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the wallet" }).click();
  await expect(page.getByTestId("wallet-balance")).toHaveText("$35.00");
  await expect(rows).toHaveCount(2);
  // Nothing is wider than the window.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
